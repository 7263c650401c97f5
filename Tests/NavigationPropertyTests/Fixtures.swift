import CasePaths
import Composable
import ConcurrencyExtras
import Dependencies

/// A screen whose work runs until it is stopped or the screen goes away.
struct Worker: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case closeButtonTapped
    case startButtonTapped
    case stopButtonTapped
  }

  enum CancelID { case work }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { [dismiss] _ in await dismiss() }
    case .startButtonTapped:
      return .run { _ in await sleepUntilCancelled() }
        .cancellable(id: CancelID.work, cancelInFlight: true)
    case .stopButtonTapped:
      return .cancel(id: CancelID.work)
    }
  }
}

/// Sleeps until the task is cancelled.
func sleepUntilCancelled() async {
  let (stream, continuation) = AsyncStream<Never>.makeStream()
  await withTaskCancellationHandler {
    for await _ in stream {}
  } onCancel: {
    continuation.finish()
  }
}

/// A root with a stack of two kinds of workers and a sheet that presents one, changed from
/// outside the operators too.
struct Navigator: Reducer {
  @CasePathable
  enum Path: Equatable, Sendable {
    case first(Worker.State)
    case second(Worker.State)
  }

  @CasePathable
  enum PathAction: Equatable, Sendable {
    case first(Worker.Action)
    case second(Worker.Action)
  }

  struct State: Equatable, Sendable {
    var path = StackState<Path>()
    @PresentationState var sheet: Worker.State?
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case closeSheetButtonTapped
    case path(StackAction<Path, PathAction>)
    case present(Worker.State)
    case push(Path)
    case removeElement(StackElementID)
    case replaceElement(StackElementID, with: Path)
    case replacePath([Path])
    case sheet(PresentationAction<Worker.Action>)
    case stopAllWorkButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeSheetButtonTapped:
        state.sheet = nil
        return .none
      case .path, .sheet:
        return .none
      case .present(let worker):
        state.sheet = worker
        return .none
      case .push(let element):
        state.path.append(element)
        return .none
      case .removeElement(let id):
        state.path[id: id] = nil
        return .none
      case .replaceElement(let id, let element):
        if state.path[id: id] != nil {
          state.path[id: id] = element
        }
        return .none
      case .replacePath(let elements):
        state.path = StackState(elements)
        return .none
      case .stopAllWorkButtonTapped:
        return .cancel(id: Worker.CancelID.work)
      }
    }
    .ifLet(\.$sheet, action: \.sheet) { Worker() }
    .forEach(\.path, action: \.path) {
      Scope(state: \.first, action: \.first) { Worker() }
      Scope(state: \.second, action: \.second) { Worker() }
    }
  }
}

/// A root with two sheets of the same feature, side by side.
struct TwinSheets: Reducer {
  struct State: Equatable, Sendable {
    @PresentationState var left: Worker.State?
    @PresentationState var right: Worker.State?
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case close(right: Bool)
    case left(PresentationAction<Worker.Action>)
    case present(Worker.State, right: Bool)
    case right(PresentationAction<Worker.Action>)
    case stopAllWorkButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .close(let right):
        if right { state.right = nil } else { state.left = nil }
        return .none
      case .left, .right:
        return .none
      case .present(let worker, let right):
        if right { state.right = worker } else { state.left = worker }
        return .none
      case .stopAllWorkButtonTapped:
        return .cancel(id: Worker.CancelID.work)
      }
    }
    .ifLet(\.$left, action: \.left) { Worker() }
    .ifLet(\.$right, action: \.right) { Worker() }
  }
}
