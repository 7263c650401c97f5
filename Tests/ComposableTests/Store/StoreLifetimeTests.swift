import Composable
import ConcurrencyExtras
import Testing

/// Work that suspends, on no clock, until its task is cancelled, and remembers that it was.
final class CancellationProbe: Sendable {
  private let state = LockIsolated((started: 0, cancelled: 0))
  private let startedStream: AsyncStream<Void>
  private let startedContinuation: AsyncStream<Void>.Continuation

  init() {
    (startedStream, startedContinuation) = AsyncStream.makeStream()
  }

  var cancelledCount: Int { state.value.cancelled }

  /// Suspends until the surrounding task is cancelled.
  func suspendUntilCancelled() async {
    state.withValue { $0.started += 1 }
    startedContinuation.yield()
    let never = AsyncStream<Never> { _ in }
    await withTaskCancellationHandler {
      for await _ in never {}
    } onCancel: {
      self.state.withValue { $0.cancelled += 1 }
    }
  }

  /// Waits until `count` suspensions have started in all.
  func waitUntilStarted(_ count: Int) async {
    var iterator = startedStream.makeAsyncIterator()
    while state.value.started < count {
      await iterator.next()
    }
  }
}

@MainActor
struct StoreLifetimeTests {
  @Test func releasingAStoreCancelsItsEffects() async {
    let probe = CancellationProbe()
    var store: Store<Int, String>? = Store(initialState: 0) {
      Reduce { _, _ in .run { _ in await probe.suspendUntilCancelled() } }
    }
    let task = store?.send("start")
    await probe.waitUntilStarted(1)

    store = nil

    #expect(task?.isCancelled == true)
    #expect(probe.cancelledCount == 1)
    if task?.isCancelled == true {
      await task?.finish()
    }
  }

  @Test func cancellingASendCancelsTheEffectsOfTheActionsItsEffectsSent() async {
    let probe = CancellationProbe()
    let store = Store(initialState: [String]()) {
      Reduce { state, action in
        state.append(action)
        switch action {
        case "start":
          return .run { send in await send("started") }
        case "started":
          return .merge(
            .run { _ in await probe.suspendUntilCancelled() },
            .send("followed")
          )
        case "followed":
          return .run { _ in await probe.suspendUntilCancelled() }
        default:
          return .none
        }
      }
    }

    let task = store.send("start")
    await probe.waitUntilStarted(2)
    #expect(store.state == ["start", "started", "followed"])
    task.cancel()

    #expect(probe.cancelledCount == 2)
    await task.finish()
    #expect(store.runningEffectCount == 0)
  }

  @Test func finishingASendWaitsForTheWholeCascade() async {
    let store = Store(initialState: [String]()) {
      Reduce { state, action in
        state.append(action)
        switch action {
        case "start":
          return .run { send in await send("middle") }
        case "middle":
          return .run { send in await send("end") }
        default:
          return .none
        }
      }
    }

    await store.send("start").finish()

    #expect(store.state == ["start", "middle", "end"])
  }
}
