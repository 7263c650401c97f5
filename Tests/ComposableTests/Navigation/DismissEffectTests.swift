import CasePaths
import Composable
import ComposableTestSupport
import Dependencies
import Testing

@MainActor
struct DismissEffectTests {
  @Test func aDismissSetInsideAPresentedFeatureIsTheOneItCalls() async {
    let calls = DismissCalls()
    let store = TestStore(initialState: OuterHost.State()) {
      OuterHost(insideHost: DismissEffect { calls.count += 1 })
    }

    await store.send(.presentButtonTapped) { $0.host = DismissHost.State() }
    await store.send(.host(.presented(.closeButtonTapped)))
    await store.finish()
    #expect(calls.count == 1)
    #expect(!store.isDismissed)
  }

  @Test func aDismissSetInsideAPresentedFeatureDoesNotReachWhatItPresents() async {
    let calls = DismissCalls()
    let store = TestStore(initialState: OuterHost.State()) {
      OuterHost(insideHost: DismissEffect { calls.count += 1 })
    }

    await store.send(.presentButtonTapped) { $0.host = DismissHost.State() }
    await store.send(.host(.presented(.presentButtonTapped))) {
      $0.host?.counter = Counter.State()
    }
    await store.send(.host(.presented(.counter(.presented(.closeButtonTapped)))))
    await store.receive(\.host.presented.counter.dismiss) { $0.host?.counter = nil }
    await store.finish()
    #expect(calls.count == 0)
  }

  @Test func aDismissSetAboveAPresentationDoesNotReachIt() async {
    let calls = DismissCalls()
    let store = TestStore(initialState: DismissHost.State()) {
      OverridingDismiss(DismissEffect { calls.count += 1 }, DismissHost())
    }

    await store.send(.presentButtonTapped) { $0.counter = Counter.State() }
    await store.send(.counter(.presented(.closeButtonTapped)))
    await store.receive(\.counter.dismiss) { $0.counter = nil }
    await store.finish()
    #expect(calls.count == 0)
    #expect(!store.isDismissed)
  }

  @Test func aChildThatCannotBeDismissedDismissesTheScreenItIsOn() async {
    let store = TestStore(initialState: EditorStack.State()) {
      EditorStack()
    }

    await store.send(\.path[id: 0].editor.closeButtonTapped)
    await store.receive(\.path.popFrom, 0) { $0.path = StackState() }
    await store.finish()
    #expect(!store.isDismissed)
  }

  @Test func anEffectOnTheMainActorStillDismissesItsElementAfterTheActionsItSends() async {
    let store = TestStore(initialState: RelayStack.State()) {
      RelayStack()
    }

    await store.send(\.path[id: 1].startButtonTapped)
    await store.receive(\.path[id: 1].pinged) { $0.path[id: 1]?.pings = 1 }
    await store.receive(\.path.popFrom, 1) { $0.path.pop(from: 1) }
    await store.finish()
    #expect(!store.isDismissed)
  }

  @Test func aStoreDrivenFromAnElementsEffectDismissesAtItsOwnRoot() async {
    // The inner store's effect starts in the element's effect, whose task carries the
    // element's context; it runs at the inner store's root all the same, so it dismisses there
    // rather than the element that drove it.
    let (calls, isDismissed) = await Self.driveStoreFromAnElementsEffect {
      .run { _ in
        @Dependency(\.dismiss) var dismiss
        await dismiss()
      }
    }
    #expect(calls == 1)
    #expect(!isDismissed)
  }

  @Test func aConcatenationOfAStoreDrivenFromAnElementsEffectDismissesAtItsOwnRoot() async {
    // The concatenation's task inherits the element's context, and its walk starts the
    // parts; the second part still runs at the inner store's root.
    let (calls, isDismissed) = await Self.driveStoreFromAnElementsEffect {
      .concatenate(
        .run { _ in },
        .run { _ in
          @Dependency(\.dismiss) var dismiss
          await dismiss()
        }
      )
    }
    #expect(calls == 1)
    #expect(!isDismissed)
  }

  /// Sends an action to a store whose reducer returns `effect`, from the effect of a stack
  /// element of a test store, and waits for both; returns how many times the inner store's own
  /// `dismiss` was called, and whether the test store was dismissed.
  private static func driveStoreFromAnElementsEffect(
    _ effect: @escaping @Sendable () -> Effect<String>
  ) async -> (calls: Int, isDismissed: Bool) {
    let calls = DismissCalls()
    let inner = Store(initialState: 0) {
      Reduce<Int, String> { _, _ in effect() }
    } withDependencies: {
      $0.dismiss = DismissEffect { calls.count += 1 }
    }
    let store = TestStore(initialState: DriverStack.State()) {
      DriverStack(inner: inner)
    }
    await store.send(\.path[id: 0].driveButtonTapped)
    await store.finish()
    return (calls.count, store.isDismissed)
  }

  @Test func aConcatenationOfAnElementDismissesTheElement() async {
    let store = TestStore(initialState: RelayStack.State()) {
      RelayStack()
    }

    await store.send(\.path[id: 0].finishButtonTapped)
    await store.receive(\.path[id: 0].pinged) { $0.path[id: 0]?.pings = 1 }
    await store.receive(\.path.popFrom, 0) { $0.path.pop(from: 0) }
    await store.finish()
    #expect(!store.isDismissed)
  }
}

@MainActor
private final class DismissCalls {
  var count = 0
}

/// Runs `base` with `dismiss` set to `dismiss`, as a feature that overrides the dependency does.
private struct OverridingDismiss<Base: Reducer>: Reducer {
  let dismiss: DismissEffect
  let base: Base

  init(_ dismiss: DismissEffect, _ base: Base) {
    self.dismiss = dismiss
    self.base = base
  }

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies {
      $0.dismiss = dismiss
    } operation: {
      base.reduce(into: &state, action: action)
    }
  }
}

/// A feature that can dismiss itself and present a counter in a sheet.
private struct DismissHost: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var counter: Counter.State?
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case closeButtonTapped
    case counter(PresentationAction<Counter.Action>)
    case presentButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      case .counter:
        return .none
      case .presentButtonTapped:
        state.counter = Counter.State()
        return .none
      }
    }
    .ifLet(\.$counter, action: \.counter) { Counter() }
  }
}

/// Presents a `DismissHost` that overrides its own `dismiss`.
private struct OuterHost: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var host: DismissHost.State?
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case host(PresentationAction<DismissHost.Action>)
    case presentButtonTapped
  }

  let insideHost: DismissEffect

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .host:
        return .none
      case .presentButtonTapped:
        state.host = DismissHost.State()
        return .none
      }
    }
    .ifLet(\.$host, action: \.host) { OverridingDismiss(insideHost, DismissHost()) }
  }
}

/// A stack of screens whose editor, an optional child run by `ifLet`, closes the screen it is
/// on: `ifLet` cannot dismiss its child, so the child's `dismiss()` reaches the nearest feature
/// that can be dismissed, the stack element.
private struct EditorStack: Reducer {
  struct Screen: Reducer {
    struct State: Equatable, Sendable {
      var editor: Counter.State? = Counter.State()
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case editor(Counter.Action)
    }

    var body: some ReducerOf<Self> {
      EmptyReducer().ifLet(\.editor, action: \.editor) { Counter() }
    }
  }

  struct State: Equatable {
    var path = StackState([Screen.State()])
  }

  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Screen.State, Screen.Action>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.path, action: \.path) { Screen() }
  }
}

/// A stack of two relays, each of which sends itself an action and then dismisses itself, from
/// an effect on the main actor: the store reduces the action on the thread the effect runs on,
/// in the middle of the effect, and the effect must come out of it in its element's scope. Or
/// from the two parts of a concatenation, which start in the concatenation's task.
private struct RelayStack: Reducer {
  struct Relay: Reducer {
    struct State: Equatable, Sendable {
      var pings = 0
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case finishButtonTapped
      case pinged
      case startButtonTapped
    }

    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .finishButtonTapped:
        return .concatenate(
          .run { send in await send(.pinged) },
          .run { _ in await dismiss() }
        )
      case .pinged:
        state.pings += 1
        return .none
      case .startButtonTapped:
        return .run { @MainActor send in
          send(.pinged)
          await dismiss()
        }
      }
    }
  }

  struct State: Equatable {
    var path = StackState([Relay.State(), Relay.State()])
  }

  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Relay.State, Relay.Action>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.path, action: \.path) { Relay() }
  }
}

/// A stack of one screen whose effect sends an action to another store.
private struct DriverStack: Reducer {
  struct Driver: Reducer {
    struct State: Equatable, Sendable {}

    @CasePathable
    enum Action: Equatable, Sendable {
      case driveButtonTapped
    }

    let inner: Store<Int, String>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .driveButtonTapped:
        return .run { [inner] _ in await inner.send("go").finish() }
      }
    }
  }

  struct State: Equatable {
    var path = StackState([Driver.State()])
  }

  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Driver.State, Driver.Action>)
  }

  let inner: Store<Int, String>

  var body: some ReducerOf<Self> {
    EmptyReducer().forEach(\.path, action: \.path) { Driver(inner: inner) }
  }
}
