import Testing

@testable import Composable

struct SmallSetTests {
  func elements(_ set: SmallSet<Int>) -> Set<Int> {
    var elements: Set<Int> = []
    set.visit { elements.insert($0) }
    return elements
  }

  @Test func insertingKeepsEachElementOnce() {
    var set = SmallSet<Int>()
    #expect(set.isEmpty)
    set.insert(1)
    set.insert(1)
    #expect(elements(set) == [1])
    set.insert(2)
    set.insert(3)
    set.insert(2)
    #expect(elements(set) == [1, 2, 3])
    #expect(set.contains(3))
    #expect(!set.contains(4))
  }

  @Test func removingSaysWhetherTheElementWasThereAndEmptiesTheSet() {
    var set = SmallSet(1)
    var removed = [set.remove(2), set.remove(1)]
    #expect(removed == [false, true])
    #expect(set.isEmpty)
    set.insert(1)
    set.insert(2)
    removed = [set.remove(2), set.remove(2), set.remove(1)]
    #expect(removed == [true, false, true])
    #expect(set.isEmpty)
  }
}
