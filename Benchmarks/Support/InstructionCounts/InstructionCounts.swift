import ArgumentParser
import BenchmarkFixtures
import Composable
import Foundation

/// Runs one workload a given number of times and nothing else, for
/// `Benchmarks/instruction-counts`, which runs it under callgrind twice (`count` and
/// `2 × count` times) and divides the difference: setup and process start cancel out, and what
/// is left is the instructions of `count` repetitions, the same on every run whatever else the
/// machine is doing.
@main
struct InstructionCounts: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Runs one benchmark workload, for counting its instructions under callgrind."
  )

  enum Workload: String, CaseIterable, ExpressibleByArgument {
    /// An action sent through a store to the top element of a stack `size` deep.
    case elementSend = "element-send"
    /// The floor of `element-send`: its element reducer run on the top of a plain array.
    case elementReduce = "element-reduce"
    /// An action sent through a store to a screen with a sheet and an optional child; `size`
    /// picks the action: 1, the screen's own; 2, the sheet's; 3, the optional child's.
    case sheetSend = "sheet-send"
    /// `size` effects started by one action and cancelled by ID by another.
    case startCancel = "start-cancel"
    /// The floor of `start-cancel`: `size` raw tasks started and cancelled.
    case taskStartCancel = "task-start-cancel"
    /// A screen pushed, `size` effects started by it, and the screen popped.
    case popWithEffects = "pop-with-effects"
    /// `size` screens pushed one by one and popped with one action.
    case pushPop = "push-pop"
  }

  @Argument(help: "The workload: \(Workload.allCases.map(\.rawValue).joined(separator: ", ")).")
  var workload: Workload

  @Argument(
    help: "The stack's depth, the number of effects or tasks in a round, or the sheet's action."
  )
  var size: Int

  @Argument(help: "How many sends or rounds to run.")
  var count: Int

  func run() throws {
    guard size > 0, count > 0 else {
      throw ValidationError("The size and the count must be positive.")
    }
    let (workload, size, count) = (workload, size, count)
    Task { @MainActor in
      switch workload {
      case .elementSend: elementSend(depth: size, count: count)
      case .elementReduce: elementReduce(depth: size, count: count)
      case .sheetSend: sheetSend(action: size, count: count)
      case .startCancel: await startCancel(effects: size, rounds: count)
      case .taskStartCancel: await taskStartCancel(tasks: size, rounds: count)
      case .popWithEffects: await popWithEffects(effects: size, rounds: count)
      case .pushPop: pushPop(elements: size, rounds: count)
      }
      Foundation.exit(EXIT_SUCCESS)
    }
    // NB: Not an async `run`: that parks the main thread in `dispatch_main`, and valgrind 3.19
    // crashes as soon as the first worker thread starts beside it. The run loop serves the main
    // queue, so the main actor runs all the same.
    RunLoop.main.run()
  }
}

@MainActor
private func elementSend(depth: Int, count: Int) {
  let store = Store(initialState: Root.State(path: makeStack(count: depth))) { Root() }
  let top = store.state.path.ids[depth - 1]
  sendTitleChanges(count, toElement: top, in: store)
  guard case .detail(let detail) = store.state.path.last else { preconditionFailure() }
  precondition(detail.standup.title == lastTitle(afterSends: count))
}

private func elementReduce(depth: Int, count: Int) {
  var elements = Array(makeStack(count: depth))
  // NB: Built as `forEach` builds its element, as the benchmark's floor is.
  let reducer = CombineReducers { Path() }
  let titles = elementTitles
  for iteration in 0..<count {
    _ = reducer.reduce(
      into: &elements[depth - 1], action: .detail(.titleChanged(titles[iteration & 1])))
  }
  guard case .detail(let top) = elements[depth - 1] else { preconditionFailure() }
  precondition(top.standup.title == lastTitle(afterSends: count))
}

@MainActor
private func sheetSend(action: Int, count: Int) {
  let store = Store(
    initialState: SheetHost.State(sheet: makeDetail(seed: 0), optional: TimerFeature.State())
  ) { SheetHost() }
  switch action {
  case 1:
    for _ in 0..<count { store.send(.tick) }
    precondition(store.state.count == count)
  case 2:
    let titles = elementTitles
    for iteration in 0..<count {
      store.send(.sheet(.presented(.titleChanged(titles[iteration & 1]))))
    }
    precondition(store.state.sheet?.standup.title == lastTitle(afterSends: count))
  default:
    for _ in 0..<count { store.send(.optional(.tick)) }
    precondition(store.state.optional?.secondsElapsed == count)
  }
}

@MainActor
private func startCancel(effects: Int, rounds: Int) async {
  let store = Store(initialState: 0) { Worker() }
  for _ in 0..<rounds {
    sleepers.reset()
    await startAndCancelEffects(effects, in: store)
  }
  precondition(store.effectRuntime.runningCount == 0)
}

@MainActor
private func taskStartCancel(tasks count: Int, rounds: Int) async {
  for _ in 0..<rounds {
    sleepers.reset()
    await startAndCancelRawTasks(count)
  }
}

@MainActor
private func popWithEffects(effects: Int, rounds: Int) async {
  let store = Store(initialState: Root.State()) { Root() }
  let detail = makeDetail(seed: 0)
  for _ in 0..<rounds {
    sleepers.reset()
    let didPush = await pushStartEffectsAndPop(effects, on: detail, in: store)
    precondition(didPush)
  }
  precondition(store.effectRuntime.runningCount == 0 && store.state.path.isEmpty)
}

@MainActor
private func pushPop(elements count: Int, rounds: Int) {
  let element = makeDetail(seed: 0)
  let ids = StackElementIDGenerator.incrementing()
  let store = Store(initialState: Root.State()) {
    Root()
  } withDependencies: {
    $0.stackElementID = ids
  }
  for _ in 0..<rounds {
    pushAndPop(count, of: element, ids: ids, in: store)
  }
  precondition(store.state.path.isEmpty)
}
