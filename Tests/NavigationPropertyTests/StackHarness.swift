import Composable
import ComposableTestSupport
import ConcurrencyExtras
import IssueReporting
import PropertyBased
import Testing

/// Runs steps against the core's store, the reference store and the model side by side,
/// checking after every step that the two stores agree, and that the core's follows the model.
@MainActor
struct Harness {
  let store: Store<Navigator.State, Navigator.Action>
  let reference: ReferenceStore<Navigator.State, Navigator.Action>
  let log: WorkLog
  let referenceLog: WorkLog
  var model = Model()
  let issues = IssueCollector()
  let referenceIssues = IssueCollector()

  init() {
    let (log, referenceLog) = (WorkLog(), WorkLog())
    (self.log, self.referenceLog) = (log, referenceLog)
    store = Store(initialState: Navigator.State()) {
      Navigator(usesReference: false)
    } withDependencies: { [log] in
      $0.workLog = log
    }
    reference = ReferenceStore(initialState: Navigator.State()) {
      Navigator(usesReference: true)
    } withDependencies: { [referenceLog] in
      $0.workLog = referenceLog
    }
  }

  /// Does one step to all three, and returns what differs.
  mutating func apply(_ step: Step) async -> [String] {
    let before = (issues.count, referenceIssues.count)
    let expectsIssue = applyToStoreAndModel(step)
    await settle()
    var failures: [String] = []
    let reported = issues.count - before.0
    if reported != (expectsIssue ? 1 : 0) {
      failures.append(
        "\(step): \(reported) issues, expected \(expectsIssue ? 1 : 0): \(issues.messages.suffix(reported))"
      )
    }
    failures += Self.disagreements(
      after: step,
      store: (store.state, store.effectRuntime.runningCount, log, reported),
      reference: (
        reference.state, reference.effects.runningCount, referenceLog,
        referenceIssues.count - before.1
      )
    )
    failures += check(after: step)
    return failures
  }

  /// Sends the action to both stores.
  func send(_ action: Navigator.Action) {
    withIssueReporters([issues]) { _ = store.send(action) }
    withIssueReporters([referenceIssues]) { reference.send(action) }
  }

  /// What differs between the core's store and the reference after a step: the state, the
  /// effects started and the work ended (from the work log), the effects still running, and the
  /// issues reported.
  static func disagreements<State: Equatable>(
    after step: some CustomStringConvertible,
    store: (state: State, running: Int, log: WorkLog, issues: Int),
    reference: (state: State, running: Int, log: WorkLog, issues: Int)
  ) -> [String] {
    var failures: [String] = []
    if store.state != reference.state {
      failures.append("\(step): the state is \(store.state), the reference's \(reference.state)")
    }
    let (done, referenceDone) = (store.log.take(), reference.log.take())
    if done != referenceDone {
      failures.append("\(step): the effects did \(done), the reference's \(referenceDone)")
    }
    if store.running != reference.running {
      failures.append(
        "\(step): \(store.running) effects run, \(reference.running) in the reference"
      )
    }
    if store.issues != reference.issues {
      failures.append("\(step): \(store.issues) issues, \(reference.issues) in the reference")
    }
    return failures
  }

  private mutating func applyToStoreAndModel(_ step: Step) -> Bool {
    switch step {
    case .push(let second):
      let label = newLabel()
      send(
        .push(second ? .second(Worker.State(id: label)) : .first(Worker.State(id: label))))
      model.stack.append(Model.Element(id: model.nextID, isSecond: second, label: label))
      model.nextID += 1
      return false

    case .viewPush(let second):
      let label = newLabel()
      let id = store.makeStackElementID()
      _ = reference.makeStackElementID()
      let state =
        second ? Navigator.Path.second(Worker.State(id: label)) : .first(Worker.State(id: label))
      send(.path(.push(id: id, state: state)))
      model.stack.append(Model.Element(id: model.nextID, isSecond: second, label: label))
      model.nextID += 1
      return false

    case .viewPushOfAnIDInUse(let position):
      guard !store.state.path.isEmpty else { return false }
      let id = store.state.path.ids[position % store.state.path.count]
      send(.path(.push(id: id, state: .first(Worker.State(id: newLabel())))))
      return true

    case .popFrom(let target):
      send(.path(.popFrom(id: elementID(model.id(target)))))
      guard let position = model.position(target) else { return true }
      model.stack.removeSubrange(position...)
      return false

    case .element(let target, let command):
      let id = model.id(target)
      let action: Worker.Action = command.action
      let isSecond = model.position(target).map { model.stack[$0].isSecond } ?? false
      send(
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
      send(.removeElement(elementID(model.id(target))))
      if let position = model.position(target) {
        model.stack.remove(at: position)
      }
      return false

    case .replaceElement(let target):
      let label = newLabel()
      guard let position = model.position(target) else {
        send(
          .replaceElement(elementID(model.id(target)), with: .first(Worker.State(id: label))))
        return false
      }
      // The element keeps its ID, so its work goes on, now in the other case.
      let isSecond = !model.stack[position].isSecond
      let state =
        isSecond
        ? Navigator.Path.second(Worker.State(id: label)) : .first(Worker.State(id: label))
      send(.replaceElement(elementID(model.stack[position].id), with: state))
      model.stack[position].isSecond = isSecond
      model.stack[position].label = label
      return false

    case .replacePath(let count):
      let labels = (0..<count).map { _ in newLabel() }
      send(.replacePath(labels.map { .first(Worker.State(id: $0)) }))
      model.stack = labels.map { label in
        defer { model.nextID += 1 }
        return Model.Element(id: model.nextID, isSecond: false, label: label)
      }
      return false

    case .present:
      let label = newLabel()
      send(.present(Worker.State(id: label)))
      model.sheet = Model.Sheet(label: label)
      return false

    case .dismissSheet:
      send(.sheet(.dismiss))
      guard model.sheet != nil else { return true }
      model.sheet = nil
      return false

    case .sheet(let command):
      send(.sheet(.presented(command.action)))
      guard model.sheet != nil else { return true }
      switch command {
      case .close: model.sheet = nil
      case .start: model.sheet?.isWorking = true
      case .stop: model.sheet?.isWorking = false
      }
      return false

    case .closeSheetFromParent:
      send(.closeSheetButtonTapped)
      model.sheet = nil
      return false

    case .stopAllWork:
      send(.stopAllWorkButtonTapped)
      for index in model.stack.indices {
        model.stack[index].isWorking = false
      }
      model.sheet?.isWorking = false
      return false
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
