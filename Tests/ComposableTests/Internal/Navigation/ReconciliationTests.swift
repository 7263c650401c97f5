import Dependencies
import Testing

@testable import Composable

/// How the registry finds a slot's children that have left the state: by the removals listed
/// since the version it last reconciled against, or by looking at every live child.
struct ReconciliationTests {
  let slot = NavigationIDPath().appending(identity: HashableIdentity("stack"))

  /// A registry with running work under each of `ids`' keys in `slot`.
  func registry(working ids: [Int]) -> EffectRegistry {
    var registry = EffectRegistry()
    for id in ids {
      let key = CancellationKey.navigation(
        slot: slot,
        child: HashableIdentity(StackElementID(integerLiteral: id))
      )
      registry.register(
        Task {},
        token: registry.running.nextToken,
        keys: SmallArray([key]),
        origin: nil,
        group: nil,
        groupToken: nil,
        isTracked: true
      )
    }
    return registry
  }

  func keeping(_ ids: Set<Int>) -> @Sendable (HashableIdentity) -> Bool {
    { ids.contains($0.value(as: StackElementID.self)!.rawValue) }
  }

  @Test func withoutChangesEveryLiveChildIsChecked() {
    var registry = registry(working: [0, 1, 2])
    let (tasks, gone) = registry.reconcile(Reconciliation(slot: slot, keeping: keeping([0, 2])))
    #expect(gone == [HashableIdentity(StackElementID(integerLiteral: 1))])
    #expect(tasks.count == 1)
    #expect(registry.examinedEntryCount == 1 + 3 + 2)
    #expect(registry.liveChildren[slot]?.children.contains(gone[0]) == false)
  }

  @Test func atTheVersionLastReconciledNothingIsExamined() {
    var stack = withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState([0, 1, 2])
    }
    var registry = registry(working: [0, 1, 2])
    let changes = stack.takeChanges()
    _ = registry.reconcile(
      Reconciliation(slot: slot, changes: changes, keeping: keeping([0, 1, 2])))
    let before = registry.examinedEntryCount
    let (tasks, gone) = registry.reconcile(
      Reconciliation(slot: slot, changes: stack.takeChanges(), keeping: keeping([]))
    )
    #expect(tasks.isEmpty && gone.isEmpty)
    #expect(registry.examinedEntryCount == before + 1)
  }

  @Test func afterAPopOnlyTheRemovedChildrenAreExamined() {
    var stack = withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState([0, 1, 2])
    }
    var registry = registry(working: [0, 1, 2])
    _ = registry.reconcile(
      Reconciliation(slot: slot, changes: stack.takeChanges(), keeping: keeping([0, 1, 2]))
    )
    stack.removeLast()
    let before = registry.examinedEntryCount
    let (_, gone) = registry.reconcile(
      Reconciliation(slot: slot, changes: stack.takeChanges(), keeping: keeping([0, 1]))
    )
    #expect(gone == [HashableIdentity(StackElementID(integerLiteral: 2))])
    // The reconciliation, the one listed removal, and the one task under it.
    #expect(registry.examinedEntryCount == before + 1 + 1 + 2)
  }

  @Test func aListThatGrowsPastItsLimitIsGivenUp() {
    var removals = StackChanges.Removals(since: 7)
    removals.record((0..<StackChanges.Removals.limit).map { StackElementID(integerLiteral: $0) })
    #expect(removals.isComplete)
    removals.record(CollectionOfOne(StackElementID(integerLiteral: 99)))
    #expect(!removals.isComplete)
    #expect(removals.ids.isEmpty)
    #expect(!removals.isEmpty(since: 7))
    #expect(StackChanges.Removals(since: 7).isEmpty(since: 7))
  }
}
