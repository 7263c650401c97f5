import Testing

@testable import Composable

struct SmallStorageTests {
  @Test func eachFormReadsAlike() {
    let forms: [(SmallStorage<[Int]>, [Int])] = [
      (.empty, []), (.one(1), [1]), (.many([1, 2]), [1, 2]),
    ]
    for (storage, expected) in forms {
      var visited: [Int] = []
      storage.visit { visited.append($0) }
      #expect(visited == expected)
      #expect(storage.isEmpty == expected.isEmpty)
      #expect(storage.contains { $0 == 2 } == expected.contains(2))
    }
  }
}
