import Composable
import ComposableTestSupport
import ConcurrencyExtras
import Testing

@MainActor
struct SerialEffectsTests {
  /// Holders overlap without nesting when tests run side by side: the first to start can be the
  /// first to end, and the other must keep its executor.
  @Test func theFirstHolderToLeaveLeavesTheExecutorOnForTheOthers() async {
    SerialEffects.acquire()
    await withSerialEffects {
      SerialEffects.release()
      #expect(uncheckedUseMainSerialExecutor)
    }
  }

  @Test func aCallThatEndsWhileATestStoreLivesLeavesTheExecutorOn() async {
    var store: TestStore<Int, Never>? = TestStore(initialState: 0) { EmptyReducer() }
    let result = await withSerialEffects { () async -> Int in
      await Task.yield()
      return 42
    }
    #expect(result == 42)
    #expect(uncheckedUseMainSerialExecutor)
    store = nil
    #expect(store == nil)
  }
}
