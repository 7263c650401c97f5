import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

@MainActor
struct PresentationReducerTests {
  let clock = TestClock()

  func makeStore() -> TestStore<SheetHost.State, SheetHost.Action> {
    TestStore(initialState: SheetHost.State()) {
      SheetHost()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func dismissingCancelsThePresentedFeaturesEffects() async {
    let store = makeStore()

    await startSheetTimer(in: store)
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func replacingThePresentationCancelsTheOldOnesEffects() async {
    let store = makeStore()

    await startSheetTimer(in: store)
    await store.send(.otherSheetButtonTapped) {
      $0.destination = .otherSheet(Counter.State())
    }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func editingThePresentedFeatureKeepsItsEffects() async {
    let store = makeStore()

    await startSheetTimer(in: store)
    await store.send(.destination(.presented(.sheet(.saveButtonTapped))))
    await store.receive(\.destination.presented.sheet.delegate.saved, 1)
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.presented.sheet.timerTick) {
      $0.destination = .sheet(Counter.State(count: 2))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.expectNothingLeftRunning()
  }

  @Test func theSheetDismissesItself() async {
    let store = makeStore()

    await startSheetTimer(in: store)
    await store.send(.destination(.presented(.sheet(.closeButtonTapped))))
    await store.receive(\.destination.dismiss) { $0.destination = nil }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func aSheetThatCapturesDismissClosesItself() async {
    let store = makeStore()

    await store.send(.sheetButtonTapped) { $0.destination = .sheet(Counter.State()) }
    await store.send(.destination(.presented(.sheet(.closeWithCapturedDismissButtonTapped))))
    await store.receive(\.destination.dismiss) { $0.destination = nil }
    #expect(!store.isDismissed)
    await store.expectNothingLeftRunning()
  }

  @Test func anyAlertButtonClearsTheAlert() async {
    let store = makeStore()

    await store.send(.alertButtonTapped) {
      $0.destination = .alert(.confirm)
    }
    await store.send(.destination(.presented(.alert(.other)))) {
      $0.destination = nil
      $0.confirmations = [.other]
    }
    await store.send(.alertButtonTapped) {
      $0.destination = .alert(.confirm)
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func anyDialogButtonClearsTheDialog() async {
    let store = makeStore()
    store.exhaustivity = .off

    await store.send(.dialogButtonTapped)
    #expect(store.state.destination.flatMap { $0[case: \.dialog] }?.title == "Choose")
    await store.send(.destination(.presented(.dialog(.confirm)))) {
      $0.destination = nil
      $0.confirmations = [.confirm]
    }
  }

  @Test func aPresentationActionWhileNothingIsPresentedIsReported() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.destination(.presented(.sheet(.saveButtonTapped))))
    } matching: { issue in
      issue.says("An \"ifLet\" received a presentation action when nothing was presented")
    }
    await withKnownIssue {
      await store.send(.destination(.dismiss))
    } matching: { issue in
      issue.says("An \"ifLet\" received a presentation action when nothing was presented")
    }
  }

  @Test func dismissWithNothingToDismissIsReported() async {
    let store = Store(initialState: Counter.State()) { Counter() }

    await withKnownIssue {
      await store.send(.closeButtonTapped).finish()
    } matching: { issue in
      issue.says("\"dismiss()\" was called, but there is nothing to dismiss")
    }
  }

  @Test func dismissAtTheRootOfATestStoreMarksItDismissed() async {
    let store = TestStore(initialState: Counter.State()) { Counter() }

    await store.send(.closeButtonTapped)
    #expect(store.isDismissed)
    await withKnownIssue {
      await store.send(.saveButtonTapped)
    } matching: { issue in
      issue.says("Can't send an action to a test store that has been dismissed")
    }
  }

  @Test func poppingAnElementCancelsTheEffectsOfItsSheet() async {
    let store = TestStore(initialState: Navigator.State()) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.pushSheetHostButtonTapped) {
      $0.path.append(.sheetHost(SheetHost.State()))
    }
    await store.send(\.path[id: 0].sheetHost.sheetButtonTapped) {
      $0.path[id: 0, case: \.sheetHost]?.destination = .sheet(Counter.State())
    }
    await store.send(\.path[id: 0].sheetHost.destination.presented.sheet.startTimerButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].sheetHost.destination.presented.sheet.timerTick) {
      $0.path[id: 0, case: \.sheetHost]?.destination = .sheet(Counter.State(count: 1))
    }
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  private func startSheetTimer(in store: TestStore<SheetHost.State, SheetHost.Action>) async {
    await store.send(.sheetButtonTapped) { $0.destination = .sheet(Counter.State()) }
    await store.send(.destination(.presented(.sheet(.startTimerButtonTapped))))
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.presented.sheet.timerTick) {
      $0.destination = .sheet(Counter.State(count: 1))
    }
  }
}
