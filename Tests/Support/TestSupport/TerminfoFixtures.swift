import Foundation

/// The terminfo entries the tests read (`Tests/Support/terminfo`, compiled by
/// `Scripts/make-terminfo-fixtures.sh`): `TERMINFO` names this folder in every environment
/// a test gives the app, so that its colours never depend on the machine's own entries.
public enum TerminfoFixtures {
  /// The folder, for `TERMINFO`.
  public static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("terminfo").path
}
