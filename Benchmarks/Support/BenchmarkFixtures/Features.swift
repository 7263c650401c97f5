public import CasePaths
public import Composable
public import Models

// The features every measurement runs: a stack of detail and timer screens under a root that
// owns it, as in the app, and a worker that starts and cancels effects by ID. The benchmarks and
// the instruction counts share them, so that their figures describe the same work.

/// A detail screen, as the app's: a standup and the means to start work when it appears.
public struct DetailFeature: Reducer {
  /// The screen's standup.
  public struct State: Equatable, Hashable, Sendable {
    /// The standup shown.
    public var standup: Standup

    /// Creates the screen's state.
    public init(standup: Standup) {
      self.standup = standup
    }
  }

  /// What happens on the screen.
  @CasePathable
  public enum Action: Equatable, Sendable {
    /// The screen appeared and starts this many long-running effects.
    case appeared(effectCount: Int)
    /// The title changed: a state change with no effect.
    case titleChanged(String)
  }

  /// Creates the screen's reducer.
  public init() {}

  /// Starts the effects, or changes the title.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
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
public struct TimerFeature: Reducer {
  /// The seconds counted.
  public struct State: Equatable, Hashable, Sendable {
    /// How many ticks came.
    public var secondsElapsed = 0

    /// Creates a timer at zero.
    public init() {}
  }

  /// What happens to the timer.
  @CasePathable
  public enum Action: Equatable, Sendable {
    /// A second passed.
    case tick
  }

  /// Creates the timer's reducer.
  public init() {}

  /// Counts the tick.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.secondsElapsed += 1
    return .none
  }
}

/// The pushable screens.
public struct Path: Reducer {
  /// A pushed screen.
  @CasePathable
  public enum State: Equatable, Hashable, Sendable {
    /// A detail screen.
    case detail(DetailFeature.State)
    /// A timer screen.
    case timer(TimerFeature.State)
  }

  /// An action of a pushed screen.
  @CasePathable
  public enum Action: Equatable, Sendable {
    /// A detail screen's action.
    case detail(DetailFeature.Action)
    /// A timer screen's action.
    case timer(TimerFeature.Action)
  }

  /// Creates the reducer of the pushed screens.
  public init() {}

  /// Runs the reducer of the screen each element is.
  public var body: some ReducerOf<Self> {
    Scope(state: \.detail, action: \.detail) { DetailFeature() }
    Scope(state: \.timer, action: \.timer) { TimerFeature() }
  }
}

/// A root feature that owns a stack and can replace or clear it, like the app's.
public struct Root: Reducer {
  /// The stack.
  public struct State: Equatable, Sendable {
    /// The screens pushed.
    public var path: StackState<Path.State>

    /// Creates the root with a stack.
    public init(path: StackState<Path.State> = StackState()) {
      self.path = path
    }
  }

  /// What the root does with its stack.
  @CasePathable
  public enum Action: Equatable, Sendable {
    /// Empties the stack.
    case clearPath
    /// An action of the stack.
    case path(StackAction<Path.State, Path.Action>)
    /// Pushes a detail screen.
    case pushDetail(DetailFeature.State)
    /// Replaces the whole stack.
    case replacePath(StackState<Path.State>)
  }

  /// Creates the root's reducer.
  public init() {}

  /// Changes the stack as asked, and runs its screens.
  public var body: some ReducerOf<Self> {
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

/// Effects with identifiers, for the cancellation measurements.
public struct Worker: Reducer {
  /// What the worker starts and cancels.
  @CasePathable
  public enum Action: Equatable, Sendable {
    /// Cancels the effects with identifiers `0..<count`.
    case cancelEach(count: Int)
    /// Cancels the latest "latest wins" effect.
    case cancelLatest
    /// Starts effects with identifiers `0..<count`, each sleeping until cancelled.
    case startEach(count: Int)
    /// Starts a "latest wins" effect, cancelling the one before.
    case startLatest
  }

  enum CancelID { case latest }

  /// Creates the worker.
  public init() {}

  /// Starts or cancels effects by identifier.
  public func reduce(into state: inout Int, action: Action) -> Effect<Action> {
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

/// A screen with a sheet and an optional child, as the app's detail screen has its alert and
/// its editor: what every action of such a screen passes through.
public struct SheetHost: Reducer {
  /// The screen's own counter, its sheet and its optional child.
  public struct State: Sendable {
    /// The screen's own ticks.
    public var count = 0
    /// The sheet.
    @PresentationState public var sheet: DetailFeature.State?
    /// The optional child.
    public var optional: TimerFeature.State?

    /// Creates the screen with a sheet and an optional child, or without.
    public init(sheet: DetailFeature.State?, optional: TimerFeature.State?) {
      self.sheet = sheet
      self.optional = optional
    }
  }

  /// An action of the screen, its sheet or its optional child.
  @CasePathable
  public enum Action: Sendable {
    /// The optional child's action.
    case optional(TimerFeature.Action)
    /// The sheet's action.
    case sheet(PresentationAction<DetailFeature.Action>)
    /// The screen's own action.
    case tick
  }

  /// Creates the screen's reducer.
  public init() {}

  /// Counts its own ticks, and runs the sheet and the optional child.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .tick = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$sheet, action: \.sheet) { DetailFeature() }
    .ifLet(\.optional, action: \.optional) { TimerFeature() }
  }
}
