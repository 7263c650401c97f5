import Benchmark
import BenchmarkFixtures
import Composable

// The cost of cancellable effects: starting and cancelling them by ID, the "latest wins"
// pattern, and tearing down everything a popped screen started; against raw tasks. Every case
// waits until the effects are gone and fails if the cancellation registry is not empty.

func effectBenchmarks() {
  for count in [100, 1000] {
    Benchmark("Effects.CancelInFlight/\(count)", configuration: configuration()) { benchmark in
      await measureOnMainActor(benchmark) { measure in
        let store = Store(initialState: 0) { Worker() }
        sleepers.reset()
        measure.start()
        for _ in 0..<count {
          store.send(.startLatest)
        }
        await sleepers.wait(for: 1)
        store.send(.cancelLatest)
        await store.effectRuntime.waitForRunningTasks()
        measure.stop()
        expectEmptyRegistry(store.effectRuntime, measure)
      }
    }

    Benchmark("Effects.StartCancel/\(count)", configuration: configuration()) { benchmark in
      await measureOnMainActor(benchmark) { measure in
        let store = Store(initialState: 0) { Worker() }
        sleepers.reset()
        measure.start()
        await startAndCancelEffects(count, in: store)
        measure.stop()
        expectEmptyRegistry(store.effectRuntime, measure)
      }
    }

    Benchmark("Baseline.TaskStartCancel/\(count)", configuration: configuration()) { benchmark in
      await measureOnMainActor(benchmark) { measure in
        sleepers.reset()
        measure.start()
        await startAndCancelRawTasks(count)
        measure.stop()
      }
    }
  }

  for count in [10, 100] {
    Benchmark("Effects.PopWithEffects/\(count)", configuration: configuration()) { benchmark in
      await measureOnMainActor(benchmark) { measure in
        let store = Store(initialState: Root.State()) { Root() }
        let detail = StackFixtures.details(count: 1)[0]
        sleepers.reset()
        measure.start()
        guard await pushStartEffectsAndPop(count, on: detail, in: store) else {
          measure.fail("Nothing was pushed.")
        }
        measure.stop()
        expectEmptyRegistry(store.effectRuntime, measure)
      }
    }
  }
}

@MainActor
private func expectEmptyRegistry(_ runtime: EffectRuntime, _ measure: Measurement) {
  guard runtime.runningCount == 0, runtime.cancellationKeyCount == 0 else {
    measure.fail(
      """
      The cancellation registry is not empty: \(runtime.runningCount) tasks and \
      \(runtime.cancellationKeyCount) keys remain.
      """
    )
  }
}
