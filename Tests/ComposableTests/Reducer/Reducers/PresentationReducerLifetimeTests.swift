import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

/// Two sheets of the same feature side by side, both closed from outside their `ifLet`s: by a
/// reducer listed before them and by a grandparent.
struct TwinSheets: Reducer {
  struct State: Equatable {
    @PresentationState var left: Counter.State?
    @PresentationState var right: Counter.State?
    var seen: [String] = []
  }

  @CasePathable
  enum Action: Equatable {
    case closeLeftBeforeIfLet
    case left(PresentationAction<Counter.Action>)
    case openBothButtonTapped
    case right(PresentationAction<Counter.Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .closeLeftBeforeIfLet = action {
        state.left = nil
      }
      return .none
    }
    Reduce { state, action in
      switch action {
      case .left(.dismiss):
        state.seen.append("left dismiss")
      case .left(.presented):
        state.seen.append("left presented")
      case .openBothButtonTapped:
        state.left = Counter.State()
        state.right = Counter.State()
      case .closeLeftBeforeIfLet, .right:
        break
      }
      return .none
    }
    .ifLet(\.$left, action: \.left) { Counter() }
    .ifLet(\.$right, action: \.right) { Counter() }
  }
}

/// A grandparent that closes both of its child's sheets by replacing the child.
private struct SheetsHost: Reducer {
  struct State: Equatable { var sheets = TwinSheets.State() }
  @CasePathable
  enum Action: Equatable {
    case closeAllButtonTapped
    case sheets(TwinSheets.Action)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .closeAllButtonTapped = action {
        state.sheets = TwinSheets.State()
      }
      return .none
    }
    Scope(state: \.sheets, action: \.sheets) { TwinSheets() }
  }
}

@MainActor
struct PresentationReducerLifetimeTests {
  let clock = TestClock()

  func makeStore() -> TestStore<TwinSheets.State, TwinSheets.Action> {
    TestStore(initialState: TwinSheets.State()) {
      TwinSheets()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  /// Opens both sheets and starts both timers.
  func startBothTimers(in store: TestStore<TwinSheets.State, TwinSheets.Action>) async {
    await store.send(.openBothButtonTapped) {
      $0.left = Counter.State()
      $0.right = Counter.State()
    }
    await store.send(.left(.presented(.startTimerButtonTapped))) {
      $0.seen = ["left presented"]
    }
    await store.send(.right(.presented(.startTimerButtonTapped)))
  }

  @Test func dismissingOneOfTwoSheetsOfTheSameTypeKeepsTheOthersEffects() async {
    let store = makeStore()
    await startBothTimers(in: store)

    await store.send(.left(.dismiss)) {
      $0.left = nil
      $0.seen.append("left dismiss")
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.right.presented.timerTick) { $0.right?.count = 1 }
    await store.send(.right(.dismiss)) { $0.right = nil }
    await store.expectNothingLeftRunning()
  }

  @Test func aCancelIDInOneSheetDoesNotReachItsTwin() async {
    let store = makeStore()
    await startBothTimers(in: store)

    await store.send(.left(.presented(.stopTimerButtonTapped))) {
      $0.seen.append("left presented")
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.right.presented.timerTick) { $0.right?.count = 1 }
    await store.send(.right(.presented(.stopTimerButtonTapped)))
    await store.expectNothingLeftRunning()
  }

  @Test func aSheetClosedByAReducerBeforeItsIfLetLosesItsEffects() async {
    let store = makeStore()

    await store.send(.openBothButtonTapped) {
      $0.left = Counter.State()
      $0.right = Counter.State()
    }
    await store.send(.left(.presented(.startTimerButtonTapped))) {
      $0.seen = ["left presented"]
    }
    await store.send(.closeLeftBeforeIfLet) { $0.left = nil }
    await clock.advance(by: .seconds(5))
    await store.send(.right(.dismiss)) { $0.right = nil }
    await store.expectNothingLeftRunning()
  }

  @Test func aSheetClosedByAGrandparentLosesItsEffectsByTheNextChildAction() async {
    let store = TestStore(initialState: SheetsHost.State()) {
      SheetsHost()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.sheets(.openBothButtonTapped)) {
      $0.sheets.left = Counter.State()
      $0.sheets.right = Counter.State()
    }
    await store.send(.sheets(.right(.presented(.startTimerButtonTapped))))
    await store.send(.closeAllButtonTapped) { $0.sheets = TwinSheets.State() }
    await store.send(.sheets(.closeLeftBeforeIfLet))
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func theParentSeesAPresentationActionWhileNothingIsPresented() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.left(.presented(.saveButtonTapped))) {
        $0.seen = ["left presented"]
      }
    } matching: { issue in
      issue.says("An \"ifLet\" received a presentation action when nothing was presented")
    }
    await withKnownIssue {
      await store.send(.left(.dismiss)) {
        $0.seen.append("left dismiss")
      }
    } matching: { issue in
      issue.says("An \"ifLet\" received a presentation action when nothing was presented")
    }
  }

  @Test func anAlertInADestinationIsClearedOnlyByItsOwnButtons() async {
    let store = TestStore(initialState: SheetHost.State()) { SheetHost() }

    await store.send(.alertButtonTapped) { $0.destination = .alert(.confirm) }
    await withKnownIssue {
      await store.send(.destination(.presented(.sheet(.saveButtonTapped))))
    } matching: { issue in
      issue.says("A \"Scope\" received a child action when child state was set to a different case")
    }
    #expect(store.state.destination == .alert(.confirm))
    await store.send(.destination(.presented(.alert(.confirm)))) {
      $0.destination = nil
      $0.confirmations = [.confirm]
    }
  }

  @Test func caseKeyPathsSkipPresented() async {
    let clock = TestClock()
    let store = TestStore(initialState: SheetHost.State()) {
      SheetHost()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.sheetButtonTapped) { $0.destination = .sheet(Counter.State()) }
    await store.send(\.destination.sheet.startTimerButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.sheet.timerTick) {
      $0.destination = .sheet(Counter.State(count: 1))
    }
    await store.send(\.destination.sheet.stopTimerButtonTapped)
    let longForm: CaseKeyPath<SheetHost.Action, Void> =
      \.destination.presented.sheet.stopTimerButtonTapped
    let shortForm: CaseKeyPath<SheetHost.Action, Void> = \.destination.sheet.stopTimerButtonTapped
    #expect(longForm(()) == shortForm(()))
    #expect(
      SheetHost.Action.destination(.dismiss)[case: \.destination.sheet] == nil
    )
  }
}
