import CasePaths
import Composable
import ConcurrencyExtras
import Dependencies

/// A screen whose work runs until it is stopped or the screen goes away, and says so in the
/// store's ``WorkLog``.
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
  @Dependency(\.workLog) var log

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { [dismiss, log, id = state.id] _ in
        log.record(.closing(id))
        await dismiss()
      }
    case .startButtonTapped:
      return .run { [log, id = state.id] _ in
        log.record(.started(id))
        await sleepUntilCancelled()
        log.record(.ended(id))
      }
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

/// What the workers' effects did, in the order they did it: the effects a store started and
/// the work it ended.
final class WorkLog: Sendable {
  enum Entry: Comparable, Sendable {
    case closing(Int)
    case ended(Int)
    case started(Int)
  }

  private let entries = LockIsolated<[Entry]>([])

  func record(_ entry: Entry) {
    entries.withValue { $0.append(entry) }
  }

  /// What happened since the last call, sorted: two stores may interleave one step's effects
  /// differently.
  func take() -> [Entry] {
    entries.withValue { entries in
      defer { entries = [] }
      return entries.sorted()
    }
  }
}

private enum WorkLogKey: DependencyKey {
  static var liveValue: WorkLog { WorkLog() }
  static var testValue: WorkLog { WorkLog() }
}

extension DependencyValues {
  var workLog: WorkLog {
    get { self[WorkLogKey.self] }
    set { self[WorkLogKey.self] = newValue }
  }
}

/// A root with a stack of two kinds of workers and a sheet that presents one, changed from
/// outside the operators too; run by the core's operators or by the reference ones.
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

  /// Whether the stack and the sheet are run by `referenceForEach` and `referenceIfLet`.
  let usesReference: Bool

  var body: some ReducerOf<Self> {
    if usesReference {
      parent
        .referenceIfLet(\.$sheet, action: \.sheet) { Worker() }
        .referenceForEach(\.path, action: \.path) { PathReducer() }
    } else {
      parent
        .ifLet(\.$sheet, action: \.sheet) { Worker() }
        .forEach(\.path, action: \.path) { PathReducer() }
    }
  }

  struct PathReducer: Reducer {
    var body: some Reducer<Path, PathAction> {
      Scope(state: \.first, action: \.first) { Worker() }
      Scope(state: \.second, action: \.second) { Worker() }
    }
  }

  var parent: some ReducerOf<Self> {
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
  }
}

/// A root with two sheets of the same feature, side by side; run by the core's operators or by
/// the reference ones.
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

  /// Whether the sheets are run by `referenceIfLet`.
  let usesReference: Bool

  var body: some ReducerOf<Self> {
    if usesReference {
      parent
        .referenceIfLet(\.$left, action: \.left) { Worker() }
        .referenceIfLet(\.$right, action: \.right) { Worker() }
    } else {
      parent
        .ifLet(\.$left, action: \.left) { Worker() }
        .ifLet(\.$right, action: \.right) { Worker() }
    }
  }

  var parent: some ReducerOf<Self> {
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
  }
}
