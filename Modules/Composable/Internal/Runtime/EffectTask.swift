/// The task that runs an effect's work, or the rest of a concatenation.
///
/// Invariant: the task of an effect whose run binds nothing holds, besides the work's own
/// frames, only the frame of its closure in `EffectWalk.startRun`, so that it fits the first
/// block the task's allocator hands out and starting an effect costs no second block. What
/// keeps it so:
/// - the type is throwing although its operation never throws: the compiler enters a task whose
///   operation does not throw through a reabstraction thunk, two more asynchronous frames;
/// - ``EffectRuntime/perform(_:send:origin:)`` is inlined into the closure, and the other
///   functions it calls (`reportUnlessCancellation`, `EffectRuntime.taskDidFinish`,
///   `TaskBinding.execute`) never are: inlined, their locals would enlarge the closure's frame.
///
/// Waiting for one reads its `result` only to wait. Guarded by `Benchmarks/instruction-counts`
/// (start + cancel, pop with effects): a second block shows there as a rise of several percent.
typealias EffectTask = Task<Void, any Error>

extension EffectRuntime {
  /// Runs an effect's work with what its task has bound, and reports what it throws but its
  /// cancellation.
  ///
  /// Always inlined, so that a task that binds nothing runs the work in its closure's frame.
  @inline(__always)
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
  ///
  /// Never inlined, to keep the message it builds out of every effect task's frame.
  @inline(never)
  static func reportUnlessCancellation<Action>(
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
