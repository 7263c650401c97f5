import Testing

@testable import Composable

struct SmallArrayTests {
  func elements(_ array: SmallArray<Int>) -> [Int] {
    var elements: [Int] = []
    array.visit { elements.append($0) }
    return elements
  }

  @Test func itGrowsFromNoneToOneToManyInOrder() {
    var array = SmallArray<Int>()
    #expect(array.count == 0)
    for element in 1...4 {
      array.append(element)
      #expect(elements(array) == Array(1...element))
      #expect(array.count == element)
    }
    #expect(SmallArray([7, 8]).count == 2)
    #expect(elements(SmallArray([7])) == [7])
  }

  @Test func removingTheLastElementsShrinksBackToOneOrNone() {
    var array = SmallArray([1, 2, 3, 4])
    array.removeLast(2, of: 4)
    #expect(elements(array) == [1, 2])
    array.removeLast(1, of: 2)
    #expect(elements(array) == [1])
    array.removeLast(0, of: 1)
    #expect(elements(array) == [1])
    array.removeLast(1, of: 1)
    #expect(elements(array) == [])
  }

  @Test func containsLooksAtEveryElement() {
    let array = SmallArray([1, 2, 3])
    #expect(array.contains { $0 == 3 })
    #expect(!array.contains { $0 == 4 })
    #expect(!SmallArray<Int>().contains { _ in true })
  }
}
