import Benchmark
import BenchmarkFixtures
import Composable
import ConcurrencyExtras
import Dependencies

// The cost of hashing and comparing stacks of large feature states, against hashing their IDs
// and comparing plain arrays of the same elements.

func hashingBenchmarks() {
  for count in [10, 100, 1000] {
    Benchmark("Hash.Stack/\(count)", configuration: configuration()) { benchmark in
      let stack = makeStack(count: count)
      benchmark.startMeasurement()
      var hasher = Hasher()
      stack.hash(into: &hasher)
      blackHole(hasher.finalize())
      benchmark.stopMeasurement()
    }

    Benchmark("Baseline.HashIDs/\(count)", configuration: configuration()) { benchmark in
      let ids = Array(0..<count)
      benchmark.startMeasurement()
      var hasher = Hasher()
      for id in ids { hasher.combine(id) }
      blackHole(hasher.finalize())
      benchmark.stopMeasurement()
    }

    Benchmark("Baseline.HashArray/\(count)", configuration: configuration()) { benchmark in
      let elements = Array(makeStack(count: count))
      benchmark.startMeasurement()
      var hasher = Hasher()
      elements.hash(into: &hasher)
      blackHole(hasher.finalize())
      benchmark.stopMeasurement()
    }

    Benchmark("Equal.Stack/\(count)", configuration: configuration()) { benchmark in
      let first = makeStack(count: count)
      let second = makeStack(count: count)
      benchmark.startMeasurement()
      let isEqual = first == second
      benchmark.stopMeasurement()
      if !isEqual {
        Measurement(benchmark: UncheckedSendable(benchmark)).fail("The stacks differ.")
      }
    }

    Benchmark("Baseline.EqualArray/\(count)", configuration: configuration()) { benchmark in
      let first = Array(makeStack(count: count))
      let second = Array(makeStack(count: count))
      benchmark.startMeasurement()
      let isEqual = first == second
      benchmark.stopMeasurement()
      if !isEqual {
        Measurement(benchmark: UncheckedSendable(benchmark)).fail("The arrays differ.")
      }
    }

    Benchmark(
      "Equal.StackCopy/\(count)",
      configuration: configuration(scalingFactor: .kilo)
    ) { benchmark in
      let stack = makeStack(count: count)
      let copy = stack
      benchmark.startMeasurement()
      // NB: A comparison of copies takes about a nanosecond; timing a thousand at a time keeps
      // the clock's resolution out of the result.
      for _ in benchmark.scaledIterations {
        for _ in 0..<1000 {
          blackHole(stack == copy)
        }
      }
      benchmark.stopMeasurement()
    }
  }

  Benchmark(
    "Hash.StackElementID",
    configuration: configuration(scalingFactor: .kilo)
  ) { benchmark in
    let ids = withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState(0..<1000).ids
    }
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      var hasher = Hasher()
      hasher.combine(ids[index % ids.count])
      blackHole(hasher.finalize())
    }
    benchmark.stopMeasurement()
  }
}
