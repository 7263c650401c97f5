import CasePaths
import Composable
import ComposableTestSupport
import Dependencies
import Testing

/// A screen with a timer, a delegate and a close button: what the navigation tests push onto
/// stacks and present in sheets.
struct Counter: Reducer {
  struct State: Equatable, Codable, Sendable {
    var count = 0
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case closeButtonTapped
    case closeWithCapturedDismissButtonTapped
    case delegate(Delegate)
    case saveButtonTapped
    case startTimerButtonTapped
    case stopTimerButtonTapped
    case timerTick

    @CasePathable
    enum Delegate: Equatable, Sendable {
      case saved(Int)
    }
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { _ in await dismiss() }
    case .closeWithCapturedDismissButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    case .delegate:
      return .none
    case .saveButtonTapped:
      return .send(.delegate(.saved(state.count)))
    case .startTimerButtonTapped:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.timerTick)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .stopTimerButtonTapped:
      return .cancel(id: CancelID.timer)
    case .timerTick:
      state.count += 1
      return .none
    }
  }
}

/// A screen that presents a counter in a sheet, another counter in a second sheet, an alert or a
/// confirmation dialog.
struct SheetHost: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var destination: Destination.State?
    var confirmations: [Destination.Choice] = []
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case alertButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case dialogButtonTapped
    case otherSheetButtonTapped
    case sheetButtonTapped
  }

  struct Destination: Reducer {
    @CasePathable
    enum State: Equatable, Sendable {
      case alert(AlertState<Choice>)
      case dialog(ConfirmationDialogState<Choice>)
      case otherSheet(Counter.State)
      case sheet(Counter.State)
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case alert(Choice)
      case dialog(Choice)
      case otherSheet(Counter.Action)
      case sheet(Counter.Action)
    }

    enum Choice: Equatable, Sendable {
      case confirm
      case other
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.sheet, action: \.sheet) { Counter() }
      Scope(state: \.otherSheet, action: \.otherSheet) { Counter() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alertButtonTapped:
        state.destination = .alert(.confirm)
        return .none
      case .destination(.presented(.alert(let choice))),
        .destination(.presented(.dialog(let choice))):
        state.confirmations.append(choice)
        return .none
      case .destination:
        return .none
      case .dialogButtonTapped:
        state.destination = .dialog(
          ConfirmationDialogState(titleVisibility: .visible) {
            TextState("Choose")
          } actions: {
            ButtonState(action: .confirm) { TextState("Confirm") }
            ButtonState(action: .other) { TextState("Other") }
          }
        )
        return .none
      case .otherSheetButtonTapped:
        state.destination = .otherSheet(Counter.State())
        return .none
      case .sheetButtonTapped:
        state.destination = .sheet(Counter.State())
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
  }
}

extension AlertState where Action == SheetHost.Destination.Choice {
  /// The alert `SheetHost` presents: two choices and a cancel button.
  static var confirm: Self {
    AlertState {
      TextState("Confirm?")
    } actions: {
      ButtonState(action: .confirm) { TextState("Confirm") }
      ButtonState(action: .other) { TextState("Other") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    }
  }
}

/// A root feature with a stack of counters and sheet hosts, and the glue a root feature
/// typically has.
struct Navigator: Reducer {
  struct Path: Reducer {
    @CasePathable
    enum State: Equatable, Sendable {
      case counter(Counter.State)
      case sheetHost(SheetHost.State)
    }

    @CasePathable
    enum Action: Equatable, Sendable {
      case counter(Counter.Action)
      case sheetHost(SheetHost.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { Counter() }
      Scope(state: \.sheetHost, action: \.sheetHost) { SheetHost() }
    }
  }

  struct State: Equatable {
    var path = StackState<Path.State>()
    var saved: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Path.State, Path.Action>)
    case popToRootButtonTapped
    case pushCounterButtonTapped
    case pushSheetHostButtonTapped
    case removeTopButtonTapped
    case replacePathButtonTapped
    case stopAllTimersButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.element(_, .counter(.delegate(.saved(let count))))):
        state.saved.append(count)
        return .none
      case .path:
        return .none
      case .popToRootButtonTapped:
        state.path.removeAll()
        return .none
      case .pushCounterButtonTapped:
        state.path.append(.counter(Counter.State()))
        return .none
      case .pushSheetHostButtonTapped:
        state.path.append(.sheetHost(SheetHost.State()))
        return .none
      case .removeTopButtonTapped:
        state.path.removeLast()
        return .none
      case .replacePathButtonTapped:
        state.path = StackState([.counter(Counter.State(count: 100))])
        return .none
      case .stopAllTimersButtonTapped:
        return .cancel(id: Counter.CancelID.timer)
      }
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

extension TestStore {
  /// Waits for the effects to finish and checks that the store's cancellation registry is empty.
  func expectNothingLeftRunning(sourceLocation: SourceLocation = #_sourceLocation) async {
    await finish()
    #expect(effectRuntime.runningCount == 0, sourceLocation: sourceLocation)
    #expect(effectRuntime.cancellationKeyCount == 0, sourceLocation: sourceLocation)
  }
}
