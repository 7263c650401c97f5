// What tests and benchmarks read of a store.

extension Store {
  /// The number of effect tasks of the root store that are still running.
  package var runningEffectCount: Int {
    runtime.runningCount
  }

  /// The effect runtime of the root store.
  package var effectRuntime: EffectRuntime {
    runtime
  }
}
