import Models
import Testing

/// Counts and lists as every module words them for the user.
struct WordingTests {
  @Test(arguments: [(0, "0 changes"), (1, "1 change"), (2, "2 changes"), (1_000, "1000 changes")])
  func aCountIsSingularOnlyForOne(count: Int, words: String) {
    #expect(Wording.counted(count, "change") == words)
  }

  @Test func aListNamesItsFirstThreeAndCountsTheRest() {
    #expect(Wording.named([]) == "")
    #expect(Wording.named(["Design"]) == "“Design”")
    #expect(Wording.named(["A", "B", "C"]) == "“A”, “B”, “C”")
    #expect(Wording.named(["A", "B", "C", "D", "E"]) == "“A”, “B”, “C”, and 2 more")
  }
}
