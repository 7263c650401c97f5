import Dependencies
import Testing

@testable import Composable

@MainActor
struct EffectWalkTests {
  @Test func anEffectIsSynchronousWhenNoPartNeedsATask() {
    let run = Effect<Int>.run { _ in }
    #expect(Effect<Int>.none.isSynchronous)
    #expect(Effect.merge(.send(1), .cancel(id: "a")).isSynchronous)
    #expect(!Effect.merge(.send(1), run).isSynchronous)
    #expect(!Effect.concatenate(.send(1), run.cancellable(id: "a")).isSynchronous)
  }

  @Test func synchronousSendsComeOutInOrderAndStartNoTask() {
    let runtime = EffectRuntime()
    var group: EffectGroup?
    var actions: [Int] = []
    runtime.start(
      .merge(.send(1), .concatenate(.send(2), .send(3)), .send(4).cancellable(id: "a")),
      origin: 0,
      dependencies: DependencyValues._current,
      group: &group,
      makeSend: { _ in Send { _ in } },
      actions: &actions
    )
    #expect(actions == [1, 2, 3, 4])
    #expect(group == nil)
    #expect(runtime.runningCount == 0)
  }

  @Test func aRunStartsATaskInTheGroupMadeForIt() async {
    let runtime = EffectRuntime()
    var group: EffectGroup?
    var actions: [Int] = []
    runtime.start(
      Effect<Int>.run { _ in }.cancellable(id: "a"),
      origin: 0,
      dependencies: DependencyValues._current,
      group: &group,
      makeSend: { _ in Send { _ in } },
      actions: &actions
    )
    #expect(group != nil)
    await group?.finish()
    await runtime.waitForRunningTasks()
    #expect(runtime.runningCount == 0)
    #expect(runtime.cancellationKeyCount == 0)
  }
}

/// What an effect's task binds: only what differs from what it inherits.
@MainActor
struct TaskBindingTests {
  let dependencies = DependencyValues._current

  func binding(
    for dependencies: DependencyValues,
    context: ReducerContext = ReducerContext(runtime: nil)
  ) -> (dependencies: Bool, context: Bool) {
    var walk = EffectWalk(
      runtime: EffectRuntime(),
      origin: 0,
      dependencies: self.dependencies,
      group: nil,
      makeSend: { _ in Send { _ in } }
    )
    let run = Effect<Int>.RunBox(
      priority: nil,
      dependencies: dependencies,
      context: context,
      body: { _ in },
      location: CodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    )
    return walk.binding(for: run)
  }

  @Test func aRunOfTheRootWithTheStoresDependenciesBindsNothing() {
    #expect(binding(for: dependencies) == (false, false))
  }

  @Test func aRunOfANavigatedChildBindsItsContext() {
    let context = ReducerContext(runtime: nil).entering(
      HashableIdentity(StackElementID(integerLiteral: 0)),
      slot: HashableIdentity("stack"),
      isDismissable: true
    )
    #expect(binding(for: dependencies, context: context) == (false, true))
  }

  @Test func aRunWithOverriddenDependenciesBindsThem() {
    var overridden = dependencies
    overridden.stackElementID = .incrementing(from: 7)
    #expect(binding(for: overridden) == (true, false))
  }
}
