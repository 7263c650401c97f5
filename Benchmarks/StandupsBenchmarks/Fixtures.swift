import Benchmark
import CasePaths
import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import Synchronization

// Realistic feature state for the stack benchmarks: a detail screen holds a standup with ten
// attendees and twenty meetings with transcripts of about 500 characters, every string built on
// its own so that no two elements share storage.

/// A detail screen, as the app's: a standup and the means to start work when it appears.
struct DetailFeature: Reducer {
  struct State: Equatable, Hashable, Sendable {
    var standup: Standup
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case appeared(effectCount: Int)
    case titleChanged(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .appeared(let effectCount):
      return .merge(
        (0..<effectCount).map { index in
          .run { _ in await sleepUntilCancelled() }
            .cancellable(id: index)
        }
      )
    case .titleChanged(let title):
      state.standup.title = title
      return .none
    }
  }
}

/// A second kind of screen, so that the path is an enum of features as in the app.
struct TimerFeature: Reducer {
  struct State: Equatable, Hashable, Sendable {
    var secondsElapsed = 0
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case tick
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.secondsElapsed += 1
    return .none
  }
}

/// The pushable screens.
struct Path: Reducer {
  @CasePathable
  enum State: Equatable, Hashable, Sendable {
    case detail(DetailFeature.State)
    case timer(TimerFeature.State)
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case detail(DetailFeature.Action)
    case timer(TimerFeature.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.detail, action: \.detail) { DetailFeature() }
    Scope(state: \.timer, action: \.timer) { TimerFeature() }
  }
}

/// A root feature that owns a stack and can replace or clear it, like the app's.
struct Root: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Path.State>()
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case clearPath
    case path(StackAction<Path.State, Path.Action>)
    case pushDetail(DetailFeature.State)
    case replacePath(StackState<Path.State>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearPath:
        state.path.removeAll()
        return .none
      case .path:
        return .none
      case .pushDetail(let detail):
        state.path.append(.detail(detail))
        return .none
      case .replacePath(let path):
        state.path = path
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

/// Effects with identifiers, for the cancellation benchmarks.
struct Worker: Reducer {
  @CasePathable
  enum Action: Equatable, Sendable {
    case cancelEach(count: Int)
    case cancelLatest
    case startEach(count: Int)
    case startLatest
  }

  enum CancelID { case latest }

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .cancelEach(let count):
      return .merge((0..<count).map { .cancel(id: $0) })
    case .cancelLatest:
      return .cancel(id: CancelID.latest)
    case .startEach(let count):
      return .merge(
        (0..<count).map { id in
          .run { _ in await sleepUntilCancelled() }
            .cancellable(id: id)
        }
      )
    case .startLatest:
      return .run { _ in await sleepUntilCancelled() }
        .cancellable(id: CancelID.latest, cancelInFlight: true)
    }
  }
}

/// Counts the long-running tasks that have started to sleep. The effect benchmarks wait for
/// every task they start to get there, so that cancelling wakes real sleepers in both the
/// effects and the raw-task baseline; the wait suspends rather than spins, so that the tasks
/// have the machine to themselves.
final class Sleepers: Sendable {
  private struct State {
    var count = 0
    var target = Int.max
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())

  /// Forgets the sleepers counted so far.
  func reset() {
    state.withLock { $0 = State() }
  }

  /// Counts one more sleeper.
  func arrive() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.count += 1
      guard state.count >= state.target else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Waits until `count` tasks have arrived since the last reset.
  func wait(for count: Int) async {
    await withCheckedContinuation { continuation in
      let isReady = state.withLock { state -> Bool in
        guard state.count < count else { return true }
        state.target = count
        state.waiter = continuation
        return false
      }
      if isReady { continuation.resume() }
    }
  }
}

let sleepers = Sleepers()

/// What a long-running effect does: sleeps until it is cancelled.
func sleepUntilCancelled() async {
  sleepers.arrive()
  try? await Task.sleep(for: .seconds(86_400))
}

/// A detail screen's state built from scratch for `seed`.
func makeDetail(seed: Int) -> DetailFeature.State {
  let attendees = (0..<10).map { index in
    Attendee(id: Attendee.ID(UUID(seed * 100 + index)), name: "Attendee \(index) of \(seed)")
  }
  let meetings = (0..<20).map { index in
    Meeting(
      id: Meeting.ID(UUID(seed * 100 + 50 + index)),
      date: Date(timeIntervalSince1970: Double(seed * 100 + index)),
      transcript: transcript(seed: seed, meeting: index)
    )
  }
  return DetailFeature.State(
    standup: Standup(
      id: Standup.ID(UUID(seed)),
      attendees: IdentifiedArray(uniqueElements: attendees),
      duration: .seconds(600),
      meetings: IdentifiedArray(uniqueElements: meetings),
      theme: Theme.allCases[seed % Theme.allCases.count],
      title: "Standup \(seed)"
    )
  )
}

private func transcript(seed: Int, meeting: Int) -> String {
  var text = "Meeting \(meeting) of standup \(seed). "
  let sentences = [
    "Yesterday I finished the timer screen and reviewed the form. ",
    "Today I will pair on persistence and look at the failing test. ",
    "No blockers, but the design review moved to Thursday. ",
  ]
  var index = seed + meeting
  while text.utf8.count < 500 {
    text += sentences[index % sentences.count]
    index += 1
  }
  return text
}

/// A stack of `count` elements, mostly detail screens with a timer screen every tenth (never on
/// top), with IDs counted from `firstID` so that two stacks built alike have the same IDs.
func makeStack(count: Int, firstID: Int = 0) -> StackState<Path.State> {
  withDependencies {
    $0.stackElementID = .incrementing(from: firstID)
  } operation: {
    StackState(
      (0..<count).map { index in
        index % 10 == 5 ? .timer(TimerFeature.State()) : .detail(makeDetail(seed: index))
      }
    )
  }
}

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
