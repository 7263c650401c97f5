import Testing

@testable import Composable

struct NavigatedChildTests {
  let parent = NavigationIDPath().appending(identity: HashableIdentity("parent"))
  let slot = HashableIdentity(NavigationSlot(.stack, \[Int].count))

  @Test func anElementsPathsAndKeyAreMadeOfItsParentSlotAndID() {
    let id = StackElementID(integerLiteral: 2)
    let element = NavigatedChild(parent: parent, slot: slot, element: id)
    #expect(element.slotPath == parent.appending(identity: slot))
    #expect(element.path == parent.appending(slot: slot, child: HashableIdentity(id)))
    #expect(element.key == .navigation(slot: element.slotPath, child: HashableIdentity(id)))
    #expect(element.key.navigatedChild == HashableIdentity(id))
    #expect(element.key.isNavigation)
  }

  @Test func anElementIsTheChildOfItsIdentity() {
    let id = StackElementID(integerLiteral: 2)
    let element = NavigatedChild(parent: parent, slot: slot, element: id)
    let child = NavigatedChild(parent: parent, slot: slot, child: HashableIdentity(id))
    #expect(element.path == child.path)
    #expect(element.key == child.key)
  }

  @Test func aUsersIdentifierIsNeverAChildsKey() {
    let key = CancellationKey(id: "timer", path: parent)
    #expect(!key.isNavigation)
    #expect(key.navigatedChild == nil)
  }
}
