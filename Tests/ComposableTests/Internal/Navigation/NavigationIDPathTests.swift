import Testing

@testable import Composable

struct NavigationIDPathTests {
  let slot = HashableIdentity(NavigationSlot(.stack, \[Int].count))
  let child = HashableIdentity(StackElementID(integerLiteral: 3))

  @Test func theRootHasNoComponents() {
    let root = NavigationIDPath()
    #expect(root.isRoot)
    #expect(root.components.isEmpty)
    #expect(root.prefixes == [root])
    #expect(root.description == "root")
  }

  @Test func aChildsPathIsItsParentsThenItsSlotThenItself() {
    let path = NavigationIDPath().appending(slot: slot, child: child)
    #expect(path.components == [slot, child])
    #expect(path == NavigationIDPath().appending(identity: slot).appending(identity: child))
    #expect(
      path.hashValue
        == NavigationIDPath().appending(identity: slot).appending(identity: child).hashValue)
    #expect(path != NavigationIDPath().appending(slot: child, child: slot))
    #expect(!path.isRoot)
  }

  @Test func prefixesRunFromTheRootDownToThePathItself() {
    let path = NavigationIDPath().appending(slot: slot, child: child)
    #expect(
      path.prefixes == [
        NavigationIDPath(), NavigationIDPath().appending(identity: slot), path,
      ]
    )
  }
}
