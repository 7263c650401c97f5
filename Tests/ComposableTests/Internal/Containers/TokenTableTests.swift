import Testing

@testable import Composable

struct TokenTableTests {
  @Test func aRemovedTokenIsGivenToTheNextInsert() {
    var table = TokenTable<String?>(vacant: nil)
    #expect(table.nextToken == 0)
    let first = table.insert("a")
    let second = table.insert("b")
    #expect((first, second) == (0, 1))
    #expect(table.remove(at: first) == "a")
    #expect(table.elements == [nil, "b"])
    #expect(table.nextToken == first)
    #expect(table.insert("c") == first)
    #expect(table.count == 2)
  }

  @Test func anEmptiedTableStartsAgainFromTheFirstToken() {
    var table = TokenTable<String?>(vacant: nil)
    let tokens = ["a", "b", "c"].map { table.insert($0) }
    for token in tokens.reversed() { table.remove(at: token) }
    #expect(table.count == 0)
    #expect(table.elements.isEmpty)
    #expect(table.insert("d") == 0)
  }

  @Test func modifyChangesTheElementInPlace() {
    var table = TokenTable<String?>(vacant: nil)
    let token = table.insert("a")
    table.modify(token) { $0? += "b" }
    #expect(table.elements[token] == "ab")
  }
}
