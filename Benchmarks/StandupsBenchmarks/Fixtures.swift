import Benchmark
import ConcurrencyExtras
import Foundation

/// Runs `body` on the main actor, where stores live, and measures only `body`: the hop to the
/// main actor is not part of what the benchmark is about.
func measureOnMainActor(
  _ benchmark: Benchmark,
  _ body: @escaping @MainActor (_ measure: Measurement) async -> Void
) async {
  let measurement = Measurement(benchmark: UncheckedSendable(benchmark))
  await body(measurement)
}

/// Starts and stops the measured region of a benchmark from the main actor.
struct Measurement: Sendable {
  // NB: The runner awaits the benchmark while it runs, so the benchmark object is only ever
  // used from one place at a time.
  let benchmark: UncheckedSendable<Benchmark>

  func start() {
    benchmark.value.startMeasurement()
  }

  func stop() {
    benchmark.value.stopMeasurement()
  }

  /// Reports a broken invariant and ends the run with a failure, so that CI notices: the
  /// harness only prints errors.
  func fail(_ description: String) -> Never {
    benchmark.value.error(description)
    FileHandle.standardError.write(Data("\(benchmark.value.name): \(description)\n".utf8))
    exit(EXIT_FAILURE)
  }
}
