/// The task that runs an effect's work, or the rest of a concatenation.
///
/// Declared throwing although its operation never throws (``EffectRuntime/perform(_:send:origin:)``
/// reports what the work throws), because the compiler enters a task whose operation does not
/// throw through a reabstraction thunk: two more asynchronous frames in every effect's task.
/// Waiting for one reads its `result` only to wait. Guarded by `Benchmarks/instruction-counts`
/// (start + cancel).
typealias EffectTask = Task<Void, any Error>

extension EffectRuntime {
  /// Runs an effect's work with what its task has bound, and reports what it throws but its
  /// cancellation.
  static func perform<Action>(
    _ run: Effect<Action>.RunBox,
    send: Send<Action>,
    origin: Action
  ) async {
    do {
      try await run.body(send)
    } catch {
      reportUnlessCancellation(error, of: run, origin: origin)
    }
  }

  /// Reports an error a run's work threw, unless it is the work's cancellation.
  private static func reportUnlessCancellation<Action>(
    _ error: any Error,
    of run: Effect<Action>.RunBox,
    origin: Action
  ) {
    guard !(error is CancellationError) else { return }
    run.location.reportIssue(
      """
      An "Effect.run" threw an unhandled error:

        \(error)

      The effect was started by this action:

        \(debugCaseOutput(origin))

      Handle the error with the "catch:" parameter of "Effect.run", or inside the operation, \
      so that the feature can tell the user what went wrong.
      """
    )
  }
}
