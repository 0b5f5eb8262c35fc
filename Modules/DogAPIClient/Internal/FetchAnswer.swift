import Foundation

/// The caller's side of one fetch, whichever transport runs it: the answer is given once,
/// by whatever comes first (the transfer's end, the deadline, the size cap or
/// cancellation), and at once; the transfer stops afterwards, in its own time. All state
/// is behind `lock`.
final class FetchAnswer: @unchecked Sendable {
  private let lock = NSLock()
  private let seconds: Double
  private var reason: DogAPIError?
  private var continuation: CheckedContinuation<Result<HTTPResponse, DogAPIError>, Never>?
  private var answered = false

  /// Where deadlines fire: a serial queue, so served by threads the system adds as they
  /// are needed, never waiting for a worker of the global pool, which transfers blocked on
  /// a silent server may all hold (a deadline then fired a second late, when the system
  /// noticed them blocked).
  private static let deadlines = DispatchQueue(label: "DogAPIClient.FetchAnswer.deadlines")

  /// - Parameter seconds: The deadline, from when ``wait(starting:on:)`` starts.
  init(seconds: Double) {
    self.seconds = seconds
  }

  /// Why the fetch stopped early, if it did: the transfer should then stop too.
  var stopReason: DogAPIError? { lock.withLock { reason } }

  /// Starts `transfer` on `queue` and the deadline, and waits for the answer; cancelling
  /// the calling task stops the fetch.
  func wait(
    starting transfer: @escaping @Sendable () -> Void, on queue: DispatchQueue
  ) async -> Result<HTTPResponse, DogAPIError> {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let stoppedEarly: DogAPIError? = lock.withLock {
          self.continuation = continuation
          return reason
        }
        if let stoppedEarly { return answer(.failure(stoppedEarly)) }
        Self.deadlines.asyncAfter(deadline: .now() + seconds) { [weak self] in
          guard let self else { return }
          self.stop(because: .timedOut(seconds: self.seconds))
        }
        queue.async(execute: transfer)
      }
    } onCancel: {
      stop(because: .cancelled)
    }
  }

  /// Ends the fetch with `reason` (the first reason given counts) and answers at once.
  func stop(because reason: DogAPIError) {
    if markStopped(because: reason) { answer(.failure(reason)) }
  }

  /// Records why the fetch stops, unless it already stopped or was answered; whether it
  /// did. (For a transport that must act between the two, then ``answer(_:)``.)
  func markStopped(because reason: DogAPIError) -> Bool {
    lock.withLock {
      guard !answered, self.reason == nil else { return false }
      self.reason = reason
      return true
    }
  }

  /// Answers the caller, the first time only; before ``wait(starting:on:)`` there is no
  /// one to answer yet, and `wait` answers with the stop reason.
  func answer(_ result: Result<HTTPResponse, DogAPIError>) {
    let continuation: CheckedContinuation<Result<HTTPResponse, DogAPIError>, Never>? = lock.withLock {
      guard !answered, let continuation = self.continuation else { return nil }
      answered = true
      self.continuation = nil
      return continuation
    }
    continuation?.resume(returning: result)
  }
}
