import Testing

@testable import Composable

struct NavigationIDPathTests {
  let slot = HashableIdentity.slot(\[Int].count)
  let child = HashableIdentity(StackElementID(integerLiteral: 3))

  @Test func theRootHasNoComponents() {
    let root = NavigationIDPath()
    #expect(root.isRoot)
    #expect(root.components.isEmpty)
    #expect(root.featurePaths == [root])
    #expect(root.depth == 0)
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

  @Test func featurePathsRunFromTheRootDownToThePathItselfAndSkipSlots() {
    let path = NavigationIDPath().appending(slot: slot, child: child)
    let deeper = path.appending(
      slot: slot, child: HashableIdentity(StackElementID(integerLiteral: 4)))
    #expect(path.featurePaths == [NavigationIDPath(), path])
    #expect(deeper.featurePaths == [NavigationIDPath(), path, deeper])
    #expect(deeper.depth == 4)
    #expect(path.appending(identity: slot).depth == 3)
  }
}
