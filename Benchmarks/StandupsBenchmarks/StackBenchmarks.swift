import Benchmark
import BenchmarkFixtures
import Composable
import Dependencies

// The cost of a navigation stack as it grows: sending to the top element, pushing and popping,
// replacing the whole path, and the diff a view layer computes.

func stackBenchmarks() {
  for depth in [1, 10, 100, 1000] {
    Benchmark(
      "Stack.ElementSend/depth=\(depth)",
      configuration: configuration(scalingFactor: .kilo)
    ) { benchmark in
      let count = benchmark.scaledIterations.count
      await measureOnMainActor(benchmark) { measure in
        let (store, top) = StackFixtures.elementSendStore(depth: depth)
        measure.start()
        sendTitleChanges(count, toElement: top, in: store)
        measure.stop()
      }
    }
  }

  for depth in [1, 10, 100, 1000] {
    // NB: The floor of an element action: the element reducer run directly on the top element
    // of a plain array, with no store, no stack and no effects to start.
    Benchmark(
      "Baseline.ElementReduce/depth=\(depth)",
      configuration: configuration(scalingFactor: .kilo)
    ) { benchmark in
      var elements = Array(makeStack(count: depth))
      // NB: Built as `forEach` builds its element, so that the body is built once and kept,
      // as in a store; `Path().reduce` called bare would rebuild its body every time.
      let reducer = CombineReducers { Path() }
      let titles = elementTitles
      benchmark.startMeasurement()
      for iteration in benchmark.scaledIterations {
        blackHole(
          reducer.reduce(
            into: &elements[depth - 1], action: .detail(.titleChanged(titles[iteration & 1]))))
      }
      benchmark.stopMeasurement()
    }
  }

  for count in [10, 100, 1000] {
    // NB: Every sample pushes about a thousand elements: 1,000 / N rounds of N pushes and one
    // pop, so that samples of every size last about as long and divide into comparable
    // per-action costs.
    let rounds = 1000 / count
    Benchmark("Stack.PushPop/\(count)", configuration: configuration()) { benchmark in
      await measureOnMainActor(benchmark) { measure in
        // NB: The same screen is pushed every time (as when a user opens one standup again and
        // again), so that the cost measured is the stack's, not the cache misses of touching a
        // thousand different screens' storage.
        let element = StackFixtures.details(count: 1)[0]
        let ids = StackElementIDGenerator.incrementing()
        let store = Store(initialState: Root.State()) {
          Root()
        } withDependencies: {
          $0.stackElementID = ids
        }
        measure.start()
        for _ in 0..<rounds {
          pushAndPop(count, of: element, ids: ids, in: store)
        }
        measure.stop()
        if !store.state.path.isEmpty {
          measure.fail("The stack was not emptied by popping its first element.")
        }
      }
    }
  }

  for count in [10, 100, 1000] {
    Benchmark("Stack.ReplacePath/\(count)", configuration: configuration()) { benchmark in
      await measureOnMainActor(benchmark) { measure in
        let path = StackFixtures.stack(count: count)
        let store = Store(initialState: Root.State()) { Root() }
        measure.start()
        store.send(.replacePath(path))
        store.send(.clearPath)
        measure.stop()
      }
    }
  }

  for count in [10, 100, 1000, 10_000] {
    Benchmark(
      "Stack.Diff/\(count)",
      configuration: configuration(scalingFactor: .kilo)
    ) { benchmark in
      let (old, new) = StackFixtures.changedStacks(count: count)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        blackHole(new.difference(from: old))
      }
      benchmark.stopMeasurement()
    }

    Benchmark(
      "Baseline.Diff/\(count)",
      configuration: configuration(scalingFactor: .one)
    ) { benchmark in
      let (old, new) = StackFixtures.changedStacks(count: count)
      let oldIDs = Array(old.ids)
      let newIDs = Array(new.ids)
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        // What a view layer writes without help: compare every ID with every other.
        blackHole(oldIDs.filter { !newIDs.contains($0) })
        blackHole(newIDs.filter { !oldIDs.contains($0) })
      }
      benchmark.stopMeasurement()
    }
  }
}

/// Stacks and stores built once per process, outside any measurement.
@MainActor
enum StackFixtures {
  private static var elementSendStores: [Int: (Store<Root.State, Root.Action>, StackElementID)] =
    [:]
  private static var detailsByCount: [Int: [DetailFeature.State]] = [:]
  private static var stacksByCount: [Int: StackState<Path.State>] = [:]

  static func elementSendStore(depth: Int) -> (Store<Root.State, Root.Action>, StackElementID) {
    if let fixture = elementSendStores[depth] { return fixture }
    let store = Store(initialState: Root.State(path: makeStack(count: depth))) { Root() }
    let top = store.state.path.ids[depth - 1]
    elementSendStores[depth] = (store, top)
    return (store, top)
  }

  static func details(count: Int) -> [DetailFeature.State] {
    if let details = detailsByCount[count] { return details }
    let details = (0..<count).map(makeDetail(seed:))
    detailsByCount[count] = details
    return details
  }

  static func stack(count: Int) -> StackState<Path.State> {
    if let stack = stacksByCount[count] { return stack }
    let stack = makeStack(count: count)
    stacksByCount[count] = stack
    return stack
  }

  /// A stack of `count` elements and the same stack after its top was popped and two screens
  /// were pushed: the change a view layer sees most.
  nonisolated static func changedStacks(count: Int) -> (
    StackState<Path.State>, StackState<Path.State>
  ) {
    let old = makeStack(count: count)
    var new = old
    withDependencies {
      $0.stackElementID = .incrementing(from: count)
    } operation: {
      new.removeLast()
      new.append(.timer(TimerFeature.State()))
      new.append(.timer(TimerFeature.State()))
    }
    return (old, new)
  }
}
