import Composable
import ComposableTestSupport
import ConcurrencyExtras
import IssueReporting
import PropertyBased
import Testing

/// One thing a user, a view layer or the parent does to the stack and the sheet. Elements are
/// named by position among those on the stack (wrapping around), or as an ID nobody has.
enum Step: Sendable, CustomStringConvertible {
  case push(second: Bool)
  case viewPush(second: Bool)
  case viewPushOfAnIDInUse(Int)
  case popFrom(Target)
  case element(Target, Command)
  case removeElement(Target)
  case replaceElement(Target)
  case replacePath(count: Int)
  case present
  case dismissSheet
  case sheet(Command)
  case closeSheetFromParent
  case stopAllWork

  enum Target: Sendable, CustomStringConvertible {
    case onStack(Int)
    case missing(Int)

    var description: String {
      switch self {
      case .onStack(let position): "#\(position)"
      case .missing(let offset): "missing+\(offset)"
      }
    }
  }

  enum Command: String, Sendable, CaseIterable {
    case close
    case start
    case stop
  }

  var description: String {
    switch self {
    case .push(let second): "push(\(second ? "second" : "first"))"
    case .viewPush(let second): "viewPush(\(second ? "second" : "first"))"
    case .viewPushOfAnIDInUse(let position): "viewPushOfAnIDInUse(#\(position))"
    case .popFrom(let target): "popFrom(\(target))"
    case .element(let target, let command): "element(\(target), .\(command))"
    case .removeElement(let target): "removeElement(\(target))"
    case .replaceElement(let target): "replaceElement(\(target))"
    case .replacePath(let count): "replacePath(\(count))"
    case .present: "present"
    case .dismissSheet: "dismissSheet"
    case .sheet(let command): "sheet(.\(command))"
    case .closeSheetFromParent: "closeSheetFromParent"
    case .stopAllWork: "stopAllWork"
    }
  }
}

/// What the stack and the sheet should be, in plain arrays, and which of them are working.
struct Model {
  struct Element: Equatable {
    var id: Int
    var isSecond: Bool
    var label: Int
    var isWorking = false
  }

  struct Sheet: Equatable {
    var label: Int
    var isWorking = false
  }

  var stack: [Element] = []
  var sheet: Sheet?
  var nextID = 0
  var nextLabel = 0

  /// The number of effects that should be running.
  var workingCount: Int {
    stack.count(where: \.isWorking) + (sheet?.isWorking == true ? 1 : 0)
  }

  /// The cancellation keys that should be registered: a running worker's own identifier at its
  /// path and the slot's, the stack's and the sheet's shared ones, and the root's.
  var keyCount: Int {
    let elements = stack.count(where: \.isWorking)
    let sheet = self.sheet?.isWorking == true ? 1 : 0
    return 2 * elements + (elements > 0 ? 1 : 0) + 3 * sheet
      + (elements + sheet > 0 ? 1 : 0)
  }

  func position(_ target: Step.Target) -> Int? {
    guard case .onStack(let position) = target, !stack.isEmpty else { return nil }
    return position % stack.count
  }

  func id(_ target: Step.Target) -> Int {
    switch target {
    case .onStack:
      return position(target).map { stack[$0].id } ?? nextID + 1
    case .missing(let offset):
      // NB: An ID that was never generated, or one that was and is gone.
      return offset.isMultiple(of: 2) ? nextID + offset : -(offset + 1)
    }
  }
}

/// Runs steps against a real store and the model side by side, checking after every step.
@MainActor
struct Harness {
  let store = Store(initialState: Navigator.State()) { Navigator() }
  var model = Model()
  let issues = IssueCollector()

  /// Does one step to both, and returns whether the store reported an issue exactly when the
  /// model expected one.
  mutating func apply(_ step: Step) async -> [String] {
    let before = issues.count
    let expectsIssue = applyToStoreAndModel(step)
    await settle()
    var failures: [String] = []
    let reported = issues.count - before
    if reported != (expectsIssue ? 1 : 0) {
      failures.append(
        "\(step): \(reported) issues, expected \(expectsIssue ? 1 : 0): \(issues.messages.suffix(reported))"
      )
    }
    failures += check(after: step)
    return failures
  }

  private mutating func applyToStoreAndModel(_ step: Step) -> Bool {
    withIssueReporters([issues]) {
      switch step {
      case .push(let second):
        let label = newLabel()
        store.send(
          .push(second ? .second(Worker.State(id: label)) : .first(Worker.State(id: label))))
        model.stack.append(Model.Element(id: model.nextID, isSecond: second, label: label))
        model.nextID += 1
        return false

      case .viewPush(let second):
        let label = newLabel()
        let id = store.makeStackElementID()
        let state =
          second ? Navigator.Path.second(Worker.State(id: label)) : .first(Worker.State(id: label))
        store.send(.path(.push(id: id, state: state)))
        model.stack.append(Model.Element(id: model.nextID, isSecond: second, label: label))
        model.nextID += 1
        return false

      case .viewPushOfAnIDInUse(let position):
        guard !store.state.path.isEmpty else { return false }
        let id = store.state.path.ids[position % store.state.path.count]
        store.send(.path(.push(id: id, state: .first(Worker.State(id: newLabel())))))
        return true

      case .popFrom(let target):
        store.send(.path(.popFrom(id: elementID(model.id(target)))))
        guard let position = model.position(target) else { return true }
        model.stack.removeSubrange(position...)
        return false

      case .element(let target, let command):
        let id = model.id(target)
        let action: Worker.Action = command.action
        let isSecond = model.position(target).map { model.stack[$0].isSecond } ?? false
        store.send(
          .path(.element(id: elementID(id), action: isSecond ? .second(action) : .first(action)))
        )
        guard let position = model.position(target) else { return true }
        switch command {
        case .close: model.stack.removeSubrange(position...)
        case .start: model.stack[position].isWorking = true
        case .stop: model.stack[position].isWorking = false
        }
        return false

      case .removeElement(let target):
        store.send(.removeElement(elementID(model.id(target))))
        if let position = model.position(target) {
          model.stack.remove(at: position)
        }
        return false

      case .replaceElement(let target):
        let label = newLabel()
        guard let position = model.position(target) else {
          store.send(
            .replaceElement(elementID(model.id(target)), with: .first(Worker.State(id: label))))
          return false
        }
        // NB: The element keeps its ID, so its work goes on, now in the other case.
        let isSecond = !model.stack[position].isSecond
        let state =
          isSecond
          ? Navigator.Path.second(Worker.State(id: label)) : .first(Worker.State(id: label))
        store.send(.replaceElement(elementID(model.stack[position].id), with: state))
        model.stack[position].isSecond = isSecond
        model.stack[position].label = label
        return false

      case .replacePath(let count):
        let labels = (0..<count).map { _ in newLabel() }
        store.send(.replacePath(labels.map { .first(Worker.State(id: $0)) }))
        model.stack = labels.map { label in
          defer { model.nextID += 1 }
          return Model.Element(id: model.nextID, isSecond: false, label: label)
        }
        return false

      case .present:
        let label = newLabel()
        store.send(.present(Worker.State(id: label)))
        model.sheet = Model.Sheet(label: label)
        return false

      case .dismissSheet:
        store.send(.sheet(.dismiss))
        guard model.sheet != nil else { return true }
        model.sheet = nil
        return false

      case .sheet(let command):
        store.send(.sheet(.presented(command.action)))
        guard model.sheet != nil else { return true }
        switch command {
        case .close: model.sheet = nil
        case .start: model.sheet?.isWorking = true
        case .stop: model.sheet?.isWorking = false
        }
        return false

      case .closeSheetFromParent:
        store.send(.closeSheetButtonTapped)
        model.sheet = nil
        return false

      case .stopAllWork:
        store.send(.stopAllWorkButtonTapped)
        for index in model.stack.indices {
          model.stack[index].isWorking = false
        }
        model.sheet?.isWorking = false
        return false
      }
    }
  }

  private mutating func newLabel() -> Int {
    defer { model.nextLabel += 1 }
    return model.nextLabel
  }

  private func elementID(_ raw: Int) -> StackElementID {
    StackElementID(integerLiteral: raw)
  }

  /// Lets every effect that is ready run: dismissals arrive, cancelled work winds down.
  func settle() async {
    for _ in 0..<8 {
      await Task.megaYield()
    }
  }

  private func check(after step: Step) -> [String] {
    var failures: [String] = []
    let ids = store.state.path.ids.map { "\($0)" }
    let expectedIDs = model.stack.map { "#\($0.id)" }
    if ids != expectedIDs {
      failures.append("\(step): the stack is \(ids), the model has \(expectedIDs)")
    }
    if !zip(store.state.path.ids, store.state.path.ids.dropFirst()).allSatisfy({ $0 < $1 }) {
      failures.append("\(step): IDs do not increase in push order: \(ids)")
    }
    let elements = store.state.path.map { element -> (Bool, Int) in
      switch element {
      case .first(let worker): (false, worker.id)
      case .second(let worker): (true, worker.id)
      }
    }
    if !elements.elementsEqual(model.stack.map { ($0.isSecond, $0.label) }, by: ==) {
      failures.append("\(step): the elements are \(elements), not the model's")
    }
    if store.state.sheet?.id != model.sheet?.label {
      failures.append("\(step): the sheet is \(String(describing: store.state.sheet))")
    }
    let runtime = store.effectRuntime
    if runtime.runningCount != model.workingCount {
      failures.append(
        "\(step): \(runtime.runningCount) effects run, the model has \(model.workingCount) working"
      )
    }
    if runtime.cancellationKeyCount != model.keyCount {
      failures.append(
        "\(step): \(runtime.cancellationKeyCount) keys registered, the model expects \(model.keyCount)"
      )
    }
    return failures
  }
}

extension Step.Command {
  var action: Worker.Action {
    switch self {
    case .close: .closeButtonTapped
    case .start: .startButtonTapped
    case .stop: .stopButtonTapped
    }
  }
}

/// The steps a user, a view layer and a parent take, with more of the common ones.
let steps = {
  let target = Gen.oneOf(
    Gen.int(in: 0...9).map(Step.Target.onStack),
    Gen.int(in: 0...3).map(Step.Target.missing)
  )
  let command = Gen<Step.Command>.case
  return Gen.frequency(
    (4, Gen.bool.map(Step.push)),
    (2, Gen.bool.map(Step.viewPush)),
    (1, Gen.int(in: 0...9).map(Step.viewPushOfAnIDInUse)),
    (2, target.map(Step.popFrom)),
    (6, zip(target, command).map(Step.element)),
    (1, target.map(Step.removeElement)),
    (1, target.map(Step.replaceElement)),
    (1, Gen.int(in: 0...3).map { Step.replacePath(count: $0) }),
    (2, Gen.always(Step.present)),
    (1, Gen.always(Step.dismissSheet)),
    (3, command.map(Step.sheet)),
    (1, Gen.always(Step.closeSheetFromParent)),
    (1, Gen.always(Step.stopAllWork))
  )
  .array(of: 1...200)
}()

@MainActor
struct StackModelTests {
  @Test(.shrinking)
  func theStackAndItsEffectsFollowTheModel() async {
    await propertyCheck(count: 60, input: steps) { steps in
      await withSerialEffects {
        var harness = Harness()
        var failures: [String] = []
        for step in steps where failures.isEmpty {
          failures += await harness.apply(step)
        }
        #expect(failures.isEmpty, "\(failures.first ?? "")")

        harness.store.send(.replacePath([]))
        harness.store.send(.closeSheetButtonTapped)
        await harness.settle()
        #expect(harness.store.effectRuntime.runningCount == 0)
        #expect(harness.store.effectRuntime.cancellationKeyCount == 0)
      }
    }
  }
}
