public import CasePaths
public import Composable
public import Models

// The features every measurement runs: a stack of detail and timer screens under a root that
// owns it, as in the app, and a worker that starts and cancels effects by ID. The benchmarks and
// the instruction counts share them, so that their figures describe the same work.

/// A detail screen, as the app's: a standup and the means to start work when it appears.
public struct DetailFeature: Reducer {
  public struct State: Equatable, Hashable, Sendable {
    public var standup: Standup

    public init(standup: Standup) {
      self.standup = standup
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case appeared(effectCount: Int)
    case titleChanged(String)
  }

  public init() {}

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
  public struct State: Equatable, Hashable, Sendable {
    public var secondsElapsed = 0

    public init() {}
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case tick
  }

  public init() {}

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.secondsElapsed += 1
    return .none
  }
}

/// The pushable screens.
public struct Path: Reducer {
  @CasePathable
  public enum State: Equatable, Hashable, Sendable {
    case detail(DetailFeature.State)
    case timer(TimerFeature.State)
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case detail(DetailFeature.Action)
    case timer(TimerFeature.Action)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.detail, action: \.detail) { DetailFeature() }
    Scope(state: \.timer, action: \.timer) { TimerFeature() }
  }
}

/// A root feature that owns a stack and can replace or clear it, like the app's.
public struct Root: Reducer {
  public struct State: Equatable, Sendable {
    public var path: StackState<Path.State>

    public init(path: StackState<Path.State> = StackState()) {
      self.path = path
    }
  }

  @CasePathable
  public enum Action: Equatable, Sendable {
    case clearPath
    case path(StackAction<Path.State, Path.Action>)
    case pushDetail(DetailFeature.State)
    case replacePath(StackState<Path.State>)
  }

  public init() {}

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
  @CasePathable
  public enum Action: Equatable, Sendable {
    case cancelEach(count: Int)
    case cancelLatest
    case startEach(count: Int)
    case startLatest
  }

  enum CancelID { case latest }

  public init() {}

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
  public struct State: Sendable {
    public var count = 0
    @PresentationState public var sheet: DetailFeature.State?
    public var optional: TimerFeature.State?

    public init(sheet: DetailFeature.State?, optional: TimerFeature.State?) {
      self.sheet = sheet
      self.optional = optional
    }
  }

  @CasePathable
  public enum Action: Sendable {
    case optional(TimerFeature.Action)
    case sheet(PresentationAction<DetailFeature.Action>)
    case tick
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .tick = action { state.count += 1 }
      return .none
    }
    .ifLet(\.$sheet, action: \.sheet) { DetailFeature() }
    .ifLet(\.optional, action: \.optional) { TimerFeature() }
  }
}
