import AppFeature
import BreedFeature
import CommandLineInterface
import Core
import DogAPIClient
import FavouritesClient
import Foundation
import LocalFiles
import SessionRecording
import TextRendering

#if canImport(Glibc)
  import Glibc
#endif

/// The command-line app: parses the arguments, picks the client, and runs either the
/// full-screen browser or a scriptable command. `Apps/DogBreedsCLI` calls
/// ``run(arguments:environment:)`` and exits with what it returns; everything else is
/// here, where tests reach it without starting a process.
public enum CommandLineApp {
  /// Runs the app for these arguments (without the program's name) and environment.
  ///
  /// - Returns: The exit status: 0 success, 1 a runtime failure, 2 a usage error, 3 not found.
  @MainActor
  public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
    var streams = Output.streams
    streams.unicode = ColorPolicy.supportsUnicode(environment: environment)
    return await Output.$streams.withValue(streams) { await parseAndRun(arguments, environment) }
  }

  @MainActor
  private static func parseAndRun(_ arguments: [String], _ environment: [String: String]) async -> Int32 {
    let options: Options
    do {
      options = try Arguments.parse(arguments, environment: environment)
    } catch {
      Output.error("\(error.message) Run `DogBreedsCLI --help` for usage.")
      return ExitCode.usage
    }
    switch options.command {
    case .help:
      Output.text(Arguments.help + "\n")
      return ExitCode.success
    case .version:
      Output.line(Arguments.version)
      return ExitCode.success
    case .replay(let path, let request):
      return Replayed.run(request, path: path, options: options, environment: environment)
    case .completions(let request):
      return Completions.run(request, environment: environment)
    case .manual:
      Output.write(ManPage.roff())
      return ExitCode.success
    case .interactive, .list, .show, .favourites:
      var session = Session(options: options, environment: environment, arguments: arguments)
      return await session.run()
    }
  }
}
