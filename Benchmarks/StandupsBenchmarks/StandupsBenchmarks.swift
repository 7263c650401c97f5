import Benchmark
import Foundation

/// The benchmarks of the navigation core. Run them with `swift package benchmark`; see
/// Benchmarks/README.md for how to read each case against its baseline.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = configuration()
  stackBenchmarks()
  hashingBenchmarks()
  effectBenchmarks()
  appBenchmarks()
  storageBenchmarks()
  syncBenchmarks()
  teamBenchmarks()
}

/// The configuration every case shares: wall clock, throughput and mallocs, for about a second
/// each — or a few iterations when `STANDUPS_BENCHMARK_SMOKE` is set, which is how CI checks
/// that the benchmarks still run.
func configuration(scalingFactor: BenchmarkScalingFactor = .one) -> Benchmark.Configuration {
  let isSmokeTest = ProcessInfo.processInfo.environment["STANDUPS_BENCHMARK_SMOKE"] != nil
  return Benchmark.Configuration(
    metrics: [.wallClock, .throughput, .mallocCountTotal],
    warmupIterations: isSmokeTest ? 0 : 3,
    scalingFactor: scalingFactor,
    maxDuration: isSmokeTest ? .milliseconds(20) : .seconds(1),
    maxIterations: isSmokeTest ? 2 : 10_000
  )
}
