// The fuzz harness: one executable for every harness, built from the package's modules as
// they are (`swift build --product DogBreedsFuzz`).
//
// Built by `make fuzz` with `-sanitize=fuzzer,address -D FUZZING`, every module
// instrumented, it runs libFuzzer's driver: the harness DOGBREEDS_FUZZ names runs on every
// input libFuzzer makes, and a broken rule stops it with the rule's message (the input is
// kept under .build/fuzz/). Built as any other product, it replays files through a
// harness's rules: `DogBreedsFuzz NAME FILE...`, exit status 1 at the first broken rule.

import Foundation
import FuzzChecks

#if FUZZING
  import CFuzzer
#endif

@main
enum Harness {
  static func main() {
    #if FUZZING
      let name = ProcessInfo.processInfo.environment["DOGBREEDS_FUZZ"] ?? ""
      guard let harness = FuzzHarnesses.all[name] else { usage("DOGBREEDS_FUZZ must name a harness:") }
      chosen = harness
      var argc = CommandLine.argc
      var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
      exit(
        LLVMFuzzerRunDriver(&argc, &argv) { data, count in
          do {
            try Harness.chosen?([UInt8](UnsafeBufferPointer(start: data, count: count)))
          } catch {
            fatalError("\(error)")
          }
          return 0
        })
    #else
      let arguments = CommandLine.arguments.dropFirst()
      guard let name = arguments.first, let harness = FuzzHarnesses.all[name], arguments.count > 1 else {
        usage("usage: DogBreedsFuzz NAME FILE..., where NAME is one of")
      }
      for path in arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          print("\(path): cannot be read")
          exit(2)
        }
        do {
          try harness([UInt8](data))
        } catch {
          print("\(path): \(error)")
          exit(1)
        }
      }
    #endif
  }

  /// The harness libFuzzer's callback runs (a C function cannot capture it).
  nonisolated(unsafe) static var chosen: (@Sendable ([UInt8]) throws(FuzzFailure) -> Void)?

  static func usage(_ text: String) -> Never {
    print(text + " " + FuzzHarnesses.all.keys.sorted().joined(separator: ", ") + ".")
    exit(2)
  }
}
