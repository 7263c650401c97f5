import Dependencies

/// What a run carries from the reducer that returned it to the task that runs it: the
/// dependencies and the reducer context in effect there.
///
/// Captured by one call that is not generic, so that `Effect.run` can be inlined into the
/// feature that calls it — where it is specialised and makes its box without looking up the
/// box's generic metadata — while the capture, which reads task-locals of the internally
/// imported `Dependencies`, stays in this module.
@usableFromInline
struct EffectEnvironment: Sendable {
  let dependencies: DependencyValues
  let context: ReducerContext.Escaped

  /// The environment of the running reducer, without its store's runtime: an effect outlives
  /// the reduction, and the task that runs it is given the runtime it runs on.
  @usableFromInline
  static func current() -> Self {
    // NB: Capturing the current values is what `withEscapedDependencies` does; keeping the
    // values themselves lets the runtime restore them with at most one task-local push, and
    // none when they are the store's, which the task inherits where it is created.
    Self(dependencies: DependencyValues._current, context: ReducerContext.current.escaping)
  }
}
