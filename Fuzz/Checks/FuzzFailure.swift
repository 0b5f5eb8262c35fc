// The rules the fuzz harnesses hold the code to, as functions: the fuzz harness
// (Fuzz/Harness) calls one for every input libFuzzer makes, and FuzzFindingsTests calls
// them for every input kept under Fuzz/Findings, on every `make test`.

/// A rule that the code under test broke for one input.
public struct FuzzFailure: Error, CustomStringConvertible {
  /// Which rule, and where.
  public let description: String
}

/// Throws `message` as a ``FuzzFailure`` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
  if !condition { throw FuzzFailure(description: message()) }
}
