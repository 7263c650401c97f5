import CasePaths
import ConcurrencyExtras
import Testing

@testable import Composable

@MainActor
struct ReducerContextTests {
  @Test func aParentReducingAnActionFromItsElementsEffectIsInItsOwnContext() async {
    let seen = LockIsolated<[Seen]>([])
    // A store, not a test store: a test store reduces an effect's actions in the test's
    // task, when the test receives them, where a store reduces them in the effect's.
    let store = Store(initialState: EchoStack.State()) {
      EchoStack { entry in seen.withValue { $0.append(entry) } }
    }
    guard let id = store.state.path.ids.first else {
      Issue.record("The stack is empty.")
      return
    }

    await store.send(.path(.element(id: id, action: .startButtonTapped))).finish()
    // Both reducers ran inside the element's effect. The parent's context, the one a task
    // it started by hand would inherit too, is the store's root; the element's is its own. The
    // effect itself, outside any reducer, is in the element's context, the one its task carries.
    #expect(
      seen.value == [
        Seen(place: .elementEffect, currentDepth: 2, scopeDepth: 2, taskDepth: 2),
        Seen(place: .element, currentDepth: 2, scopeDepth: 2, taskDepth: 0),
        Seen(place: .parent, currentDepth: 0, scopeDepth: 0, taskDepth: 0),
      ]
    )
  }
}

/// Where a navigated child sits: its paths, its key, and the feature its `dismiss()` dismisses.
struct NavigatedChildTests {
  let slot = HashableIdentity.slot(\[Int].count)
  let root = ReducerContext(runtime: nil)

  @Test func anElementsPathsAndKeyAreMadeOfItsParentsPathItsSlotAndItsID() {
    let outer = root.entering(HashableIdentity("outer"), slot: slot, isDismissable: true)
    let id = HashableIdentity(StackElementID(integerLiteral: 2))
    let element = outer.entering(id, slot: slot, isDismissable: true).child!
    let parent = outer.navigationIDPath
    #expect(element.slotPath == parent.appending(identity: slot))
    #expect(element.path == parent.appending(slot: slot, child: id))
    #expect(element.key == .navigation(slot: element.slotPath, child: id))
    #expect(element.key.navigatedChild == id)
    #expect(element.key.isNavigation)
  }

  @Test func aChildItsParentCannotDismissDismissesWhatItsParentDismisses() {
    let element = root.entering(HashableIdentity(1), slot: slot, isDismissable: true)
    let optional = element.entering(HashableIdentity(2), slot: slot, isDismissable: false)
    #expect(optional.dismissedPath == element.navigationIDPath)
    #expect(
      root.entering(HashableIdentity(3), slot: slot, isDismissable: false).dismissedPath == nil)
    #expect(root.dismissedPath == nil)
  }

  @Test func aUsersIdentifierIsNeverAChildsKey() {
    let key = CancellationKey(id: "timer", path: NavigationIDPath())
    #expect(!key.isNavigation)
    #expect(key.navigatedChild == nil)
  }
}

/// Where a reducer or an effect ran: how deep its navigation path was, as it reads its context,
/// as it reads the scope of its cancellation identifiers, and as a task it started would
/// inherit it.
private struct Seen: Equatable, Sendable {
  enum Place: Equatable, Sendable { case element, elementEffect, parent }
  let place: Place
  let currentDepth: Int
  let scopeDepth: Int
  let taskDepth: Int

  init(place: Place, currentDepth: Int, scopeDepth: Int, taskDepth: Int) {
    self.place = place
    self.currentDepth = currentDepth
    self.scopeDepth = scopeDepth
    self.taskDepth = taskDepth
  }

  init(_ place: Place) {
    self.init(
      place: place,
      currentDepth: ReducerContext.current.navigationIDPath.components.count,
      scopeDepth: ReducerContext.currentNavigationIDPath.components.count,
      taskDepth: ReducerContext.inTask.navigationIDPath.components.count
    )
  }
}

/// A stack of one element whose effect, on the main actor, records where it runs and sends the
/// element an action that both the element and the parent record.
private struct EchoStack: Reducer {
  struct Echo: Reducer {
    struct State: Equatable, Sendable {}

    @CasePathable
    enum Action: Equatable, Sendable {
      case pinged
      case startButtonTapped
    }

    let record: @Sendable (Seen) -> Void

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .pinged:
        record(Seen(.element))
        return .none
      case .startButtonTapped:
        return .run { @MainActor [record] send in
          record(Seen(.elementEffect))
          send(.pinged)
        }
      }
    }
  }

  struct State: Equatable {
    var path = StackState([Echo.State()])
  }

  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Echo.State, Echo.Action>)
  }

  let record: @Sendable (Seen) -> Void

  init(record: @escaping @Sendable (Seen) -> Void) {
    self.record = record
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.path, action: \.path) { Echo(record: record) }
    Reduce { _, action in
      if case .path(.element(_, .pinged)) = action { record(Seen(.parent)) }
      return .none
    }
  }
}
