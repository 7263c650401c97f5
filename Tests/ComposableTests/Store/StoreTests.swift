import CasePaths
import Composable
import Dependencies
import Foundation
import IssueReporting
import Testing

@MainActor
struct StoreTests {
  struct Logger: Reducer {
    struct State: Equatable {
      var log: [String] = []
      var child = Child.State()
    }

    @CasePathable
    enum Action: Equatable {
      case child(Child.Action)
      case chainButtonTapped
      case effectButtonTapped
      case record(String)
      case recordThenChain(String)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.child, action: \.child) { Child() }
      Reduce { state, action in
        switch action {
        case .child:
          return .none
        case .chainButtonTapped:
          state.log.append("tapped")
          return .merge(.send(.recordThenChain("b")), .send(.record("c")))
        case .effectButtonTapped:
          state.log.append("tapped")
          return .merge(
            .send(.record("sync 1")),
            .run { send in
              await send(.record("async 1"))
              await send(.record("async 2"))
            },
            .send(.record("sync 2"))
          )
        case .record(let entry):
          state.log.append(entry)
          return .none
        case .recordThenChain(let entry):
          state.log.append(entry)
          return .send(.record("\(entry) → d"))
        }
      }
    }
  }

  struct Child: Reducer {
    struct State: Equatable { var count = 0 }
    @CasePathable
    enum Action: Equatable { case incrementButtonTapped }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  @Test func synchronousActionsAreQueuedInOrderNotReentered() {
    let store = Store(initialState: Logger.State()) { Logger() }

    store.send(.chainButtonTapped)

    #expect(store.state.log == ["tapped", "b", "c", "b → d"])
  }

  @Test func actionsFromEffectsFollowSynchronousOnesInOrder() async {
    let store = Store(initialState: Logger.State()) { Logger() }

    let task = store.send(.effectButtonTapped)
    #expect(store.state.log == ["tapped", "sync 1", "sync 2"])
    await task.finish()
    #expect(store.state.log == ["tapped", "sync 1", "sync 2", "async 1", "async 2"])
    #expect(store.runningEffectCount == 0)
  }

  @Test func scopedStoresReadAndWriteThroughTheRoot() {
    let store = Store(initialState: Logger.State()) { Logger() }
    let child = store.scope(state: \.child, action: \.child)

    store.send(.child(.incrementButtonTapped))
    #expect(child.state.count == 1)
    child.send(.incrementButtonTapped)
    #expect(store.state.child.count == 2)
    #expect(child.count == 2)
  }

  @Test func observersAreNotifiedOncePerBatch() async {
    let store = Store(initialState: Logger.State()) { Logger() }
    var notifications: [[String]] = []
    let observation = store.observe { notifications.append(store.state.log) }

    store.send(.chainButtonTapped)
    #expect(notifications == [["tapped", "b", "c", "b → d"]])

    observation.cancel()
    store.send(.record("unobserved"))
    #expect(notifications.count == 1)
  }

  @Test func releasingTheObservationStopsNotifications() {
    let store = Store(initialState: Logger.State()) { Logger() }
    var count = 0
    var observation: StoreObservation? = store.observe { count += 1 }

    store.send(.record("one"))
    #expect(observation != nil)
    observation = nil
    store.send(.record("two"))
    #expect(count == 1)
  }

  @Test func anUnhandledErrorInRunIsReportedWithTheAction() async {
    struct LoadError: Error {}
    let store = Store(initialState: 0) {
      Reduce<Int, String> { _, _ in
        .run { _ in throw LoadError() }
      }
    }

    await withKnownIssue {
      await store.send("loadButtonTapped").finish()
    } matching: { issue in
      issue.says("threw an unhandled error", "LoadError", "loadButtonTapped")
    }
    #expect(store.runningEffectCount == 0)
  }

  @Test func aHandledErrorGoesToTheCatchHandler() async {
    struct LoadError: Error {}
    let store = Store(initialState: "") {
      Reduce<String, String> { state, action in
        if action == "load" {
          return .run { _ in
            throw LoadError()
          } catch: { _, send in
            await send("failed")
          }
        }
        state = action
        return .none
      }
    }

    await store.send("load").finish()
    #expect(store.state == "failed")
  }

  @Test func cancellationErrorsEndEffectsQuietly() async {
    let store = Store(initialState: 0) {
      Reduce<Int, String> { _, _ in
        .run { _ in throw CancellationError() }
      }
    }

    await store.send("go").finish()
    #expect(store.runningEffectCount == 0)
  }

  @Test func storeDependenciesReachTheReducerAndItsEffects() async {
    struct Stamp: Reducer {
      @Dependency(\.uuid) var uuid
      func reduce(into state: inout [UUID], action: String) -> Effect<String> {
        state.append(uuid())
        guard action == "start" else { return .none }
        return .run { send in
          @Dependency(\.uuid) var uuid
          _ = uuid()
          await send("effect")
        }
      }
    }
    let store = Store(initialState: [UUID]()) {
      Stamp()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send("start").finish()
    #expect(
      store.state == [UUID(0), UUID(2)]
    )
  }

  @Test func dependenciesAReducerOverridesReachTheEffectsItReturns() async {
    let store = UUIDStamps.store {
      withDependencies {
        $0.uuid = .constant(UUID(7))
      } operation: {
        UUIDStamps.stamp()
      }
    }

    await store.send("start").finish()
    #expect(store.state == [UUID(7)])
  }

  @Test func dependenciesReachTheRunsOfAConcatenation() async {
    let store = UUIDStamps.store {
      let overridden = withDependencies {
        $0.uuid = .constant(UUID(7))
      } operation: {
        UUIDStamps.stamp()
      }
      // The head of the concatenation is a run, so every part starts in the
      // concatenation's task, whose walk decides what each part's task binds.
      return .concatenate(UUIDStamps.stamp(), overridden, UUIDStamps.stamp())
    }

    await store.send("start").finish()
    #expect(store.state == [UUID(0), UUID(7), UUID(1)])
  }

  @Test func storeDependenciesReachTheEffectsOfAnActionSentOutsideAnyTask() async {
    let store = UUIDStamps.store { UUIDStamps.stamp() }

    // A block on the main queue runs in no task, where the dependencies the effects start
    // with are bound in the thread's own storage, which their tasks copy all the same.
    let task = await withCheckedContinuation { continuation in
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          #expect(withUnsafeCurrentTask { $0 == nil })
          continuation.resume(returning: store.send("start"))
        }
      }
    }
    await task.finish()
    #expect(store.state == [UUID(0)])
  }

  @Test func cancellingAStoreTaskCancelsItsEffects() async {
    let store = Store(initialState: 0) {
      Reduce<Int, String> { state, action in
        if action == "tick" {
          state += 1
          return .none
        }
        return .run { send in
          let never = AsyncStream<Never> { _ in }
          for await _ in never {}
          await send("tick")
        }
      }
    }

    let task = store.send("start")
    #expect(store.runningEffectCount == 1)
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.state == 0)
    #expect(store.runningEffectCount == 0)
  }
}

/// A feature whose "start" returns the effect it was made with, and which records every other
/// action as a UUID: effects send the UUIDs their dependencies give them.
private struct UUIDStamps: Reducer {
  let start: @Sendable () -> Effect<String>

  func reduce(into state: inout [UUID], action: String) -> Effect<String> {
    guard action == "start" else {
      state.append(UUID(uuidString: action)!)
      return .none
    }
    return start()
  }

  /// A run that sends the next UUID of the dependencies it runs with.
  static func stamp() -> Effect<String> {
    .run { send in
      @Dependency(\.uuid) var uuid
      await send(uuid().uuidString)
    }
  }

  /// A store of the feature whose UUIDs count up from 0.
  @MainActor
  static func store(
    starting start: @escaping @Sendable () -> Effect<String>
  ) -> Store<[UUID], String> {
    Store(initialState: []) {
      UUIDStamps(start: start)
    } withDependencies: {
      $0.uuid = .incrementing
    }
  }
}
