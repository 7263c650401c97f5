import CasePaths
import Composable
import ComposableTestSupport
import Dependencies
import Testing

// Every operator that takes a case path has two overloads: one for a `CaseKeyPath` value, and
// one that Swift picks for a literal such as `\.counter`, which names the case through the
// enum's `AllCasePaths` and resolves it once. Since the app and the other tests write literals,
// these tests drive both spellings through the same exhaustive script, so that the `CaseKeyPath`
// overloads stay covered and the two can never drift apart.

@MainActor
struct CaseKeyPathSpellingTests {
  /// How a reducer names its cases.
  enum Spelling: CaseIterable, Sendable {
    /// Literals, as features write them: the `AllCasePaths` overloads.
    case literal
    /// `CaseKeyPath` values: the general overloads.
    case caseKeyPath
  }

  @Test(arguments: Spelling.allCases)
  func scopeToAStoredPropertyLiftsTheChildsEffects(_ spelling: Spelling) async {
    let store = TestStore(initialState: Feature.State()) { Feature(spelling: spelling) }

    await store.send(.counter(.incrementButtonTapped)) {
      $0.counter.count = 1
    }
    await store.receive(\.counter.delegate.changed, 1) {
      $0.changes = [1]
    }
  }

  @Test(arguments: Spelling.allCases)
  func scopeToAnEnumCaseRunsOnlyInThatCase(_ spelling: Spelling) async {
    let store = TestStore(initialState: Mode.State.counter(Counter.State())) {
      Mode(spelling: spelling)
    }

    await store.send(.counter(.incrementButtonTapped)) {
      $0 = .counter(Counter.State(count: 1))
    }
    await store.receive(\.counter.delegate.changed, 1)
    await store.send(.turnOffButtonTapped) {
      $0 = .off
    }
    await withKnownIssue {
      await store.send(.counter(.incrementButtonTapped))
    } matching: { issue in
      issue.says("received a child action when child state was set to a different case")
    }
  }

  @Test(arguments: Spelling.allCases)
  func forEachRoutesToElementsAndPopsOnDismiss(_ spelling: Spelling) async {
    let store = TestStore(initialState: Feature.State()) { Feature(spelling: spelling) }

    await store.send(.path(.push(id: 0, state: Counter.State()))) {
      $0.path[id: 0] = Counter.State()
    }
    await store.send(.path(.element(id: 0, action: .incrementButtonTapped))) {
      $0.path[id: 0]?.count = 1
    }
    await store.receive(\.path[id: 0].delegate.changed, 1) {
      $0.changes = [1]
    }
    await store.send(.path(.element(id: 0, action: .closeButtonTapped)))
    await store.receive(\.path.popFrom, 0) {
      $0.path = StackState()
    }
  }

  @Test(arguments: Spelling.allCases)
  func ifLetPresentsAndDismissesADestination(_ spelling: Spelling) async {
    let store = TestStore(initialState: Feature.State()) { Feature(spelling: spelling) }

    await store.send(.showSheetButtonTapped) {
      $0.sheet = Counter.State()
    }
    await store.send(.sheet(.presented(.incrementButtonTapped))) {
      $0.sheet?.count = 1
    }
    await store.receive(\.sheet.presented.delegate.changed, 1) {
      $0.changes = [1]
    }
    await store.send(.sheet(.presented(.closeButtonTapped)))
    await store.receive(\.sheet.dismiss) {
      $0.sheet = nil
    }
  }

  @Test(arguments: Spelling.allCases)
  func ifLetClearsAnAlertOnItsOwnButtons(_ spelling: Spelling) async {
    let store = TestStore(initialState: Feature.State()) { Feature(spelling: spelling) }

    await store.send(.showAlertButtonTapped) {
      $0.alert = AlertState { TextState("Reset?") }
    }
    await store.send(.alert(.presented(.resetButtonTapped))) {
      $0.alert = nil
      $0.counter.count = 0
    }
  }

  @Test(arguments: Spelling.allCases)
  func ifLetRunsOptionalStateWhileItIsThere(_ spelling: Spelling) async {
    let store = TestStore(initialState: Feature.State()) { Feature(spelling: spelling) }

    await store.send(.showOptionalButtonTapped) {
      $0.optional = Counter.State()
    }
    await store.send(.optional(.incrementButtonTapped)) {
      $0.optional?.count = 1
    }
    await store.receive(\.optional.delegate.changed, 1) {
      $0.changes = [1]
    }
  }

  @Test(arguments: Spelling.allCases)
  func aScopedStoreEmbedsItsActions(_ spelling: Spelling) {
    let store = Store(initialState: Feature.State()) { Feature(spelling: spelling) }
    let counterStore: Store<Counter.State, Counter.Action>
    switch spelling {
    case .literal:
      counterStore = store.scope(state: \.counter, action: \.counter)
    case .caseKeyPath:
      let toCounter: CaseKeyPath<Feature.Action, Counter.Action> = \.counter
      counterStore = store.scope(state: \.counter, action: toCounter)
    }

    counterStore.send(.incrementButtonTapped)

    #expect(counterStore.count == 1)
    #expect(store.changes == [1])
  }
}

extension CaseKeyPathSpellingTests {
  struct Counter: Reducer {
    struct State: Equatable, Sendable {
      var count = 0
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case closeButtonTapped
      case delegate(Delegate)
      case incrementButtonTapped

      @CasePathable
      enum Delegate: Equatable, Sendable {
        case changed(Int)
      }
    }

    @Dependency(\.dismiss) var dismiss

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .closeButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      case .delegate:
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .send(.delegate(.changed(state.count)))
      }
    }
  }

  struct Mode: Reducer {
    @CasePathable
    enum State: Equatable, Sendable {
      case counter(Counter.State)
      case off
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case counter(Counter.Action)
      case turnOffButtonTapped
    }

    let spelling: Spelling

    var body: some ReducerOf<Self> {
      if spelling == .literal {
        Scope(state: \.counter, action: \.counter) { Counter() }
      } else {
        let toState: CaseKeyPath<State, Counter.State> = \.counter
        let toAction: CaseKeyPath<Action, Counter.Action> = \.counter
        Scope(state: toState, action: toAction) { Counter() }
      }
      Reduce { state, action in
        if case .turnOffButtonTapped = action { state = .off }
        return .none
      }
    }
  }

  struct Feature: Reducer {
    struct State: Equatable, Sendable {
      @PresentationState var alert: AlertState<Action.Alert>?
      var changes: [Int] = []
      var counter = Counter.State()
      var optional: Counter.State?
      var path = StackState<Counter.State>()
      @PresentationState var sheet: Counter.State?
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case alert(PresentationAction<Alert>)
      case counter(Counter.Action)
      case optional(Counter.Action)
      case path(StackAction<Counter.State, Counter.Action>)
      case sheet(PresentationAction<Counter.Action>)
      case showAlertButtonTapped
      case showOptionalButtonTapped
      case showSheetButtonTapped

      @CasePathable
      enum Alert: Equatable, Sendable {
        case resetButtonTapped
      }
    }

    let spelling: Spelling

    var body: some ReducerOf<Self> {
      if spelling == .literal {
        Scope(state: \.counter, action: \.counter) { Counter() }
        core
          .forEach(\.path, action: \.path) { Counter() }
          .ifLet(\.$sheet, action: \.sheet) { Counter() }
          .ifLet(\.$alert, action: \.alert)
          .ifLet(\.optional, action: \.optional) { Counter() }
      } else {
        Scope(state: \.counter, action: \.counter as CaseKeyPath<Action, Counter.Action>) {
          Counter()
        }
        core
          .forEach(
            \.path,
            action: \.path as CaseKeyPath<Action, StackAction<Counter.State, Counter.Action>>
          ) {
            Counter()
          }
          .ifLet(
            \.$sheet, action: \.sheet as CaseKeyPath<Action, PresentationAction<Counter.Action>>
          ) {
            Counter()
          }
          .ifLet(\.$alert, action: \.alert as CaseKeyPath<Action, PresentationAction<Action.Alert>>)
          .ifLet(\.optional, action: \.optional as CaseKeyPath<Action, Counter.Action>) {
            Counter()
          }
      }
    }

    private var core: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .alert(.presented(.resetButtonTapped)):
          state.counter.count = 0
          return .none
        case .counter(.delegate(.changed(let count))),
          .optional(.delegate(.changed(let count))),
          .path(.element(_, .delegate(.changed(let count)))),
          .sheet(.presented(.delegate(.changed(let count)))):
          state.changes.append(count)
          return .none
        case .alert, .counter, .optional, .path, .sheet:
          return .none
        case .showAlertButtonTapped:
          state.alert = AlertState { TextState("Reset?") }
          return .none
        case .showOptionalButtonTapped:
          state.optional = Counter.State()
          return .none
        case .showSheetButtonTapped:
          state.sheet = Counter.State()
          return .none
        }
      }
    }
  }
}
