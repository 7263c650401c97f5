import CasePaths
import CustomDump
import Dependencies
import Foundation
import Testing

@testable import Composable

struct StackStateTests {
  @Test func idsCountUpFromTheGenerator() {
    withDependencies {
      $0.stackElementID = .incrementing(from: 3)
    } operation: {
      var stack = StackState(["a", "b"])
      stack.append("c")
      #expect(stack.ids == [3, 4, 5])
      #expect(Array(stack) == ["a", "b", "c"])
      #expect(stack[id: 4] == "b")
    }
  }

  @Test func settingNilRemovesOnlyThatElement() {
    var stack = makeStack(["a", "b", "c"])
    stack[id: 1] = nil
    #expect(stack.ids == [0, 2])
    stack[id: 2] = "C"
    #expect(Array(stack) == ["a", "C"])
  }

  @Test func popFromAndPopTo() {
    var stack = makeStack(["a", "b", "c", "d"])
    stack.pop(to: 1)
    #expect(stack.ids == [0, 1])
    stack.pop(from: 1)
    #expect(stack.ids == [0])
    stack.pop(from: 42)
    #expect(stack.ids == [0])
    stack.removeAll()
    #expect(stack.isEmpty)
  }

  @Test(arguments: [3, 40])
  func modifyingAnElementWritesOnlyThatOne(count: Int) {
    let letters = (0..<count).map { "\($0)" }
    var stack = makeStack(letters)
    for id in [count - 1, count / 2, 0] {
      #expect(stack.modify(id: StackElementID(integerLiteral: id)) { $0 += "!" })
    }
    #expect(!stack.modify(id: StackElementID(integerLiteral: count)) { $0 += "?" })
    var expected = letters
    for index in [count - 1, count / 2, 0] { expected[index] += "!" }
    #expect(Array(stack) == expected)
    #expect(Array(stack.ids) == (0..<count).map { StackElementID(integerLiteral: $0) })
  }

  @Test func removingByPredicateKeepsTheOtherIDs() {
    var stack = makeStack(["a", "b", "c", "d"])
    stack.removeAll { $0 == "b" || $0 == "d" }
    #expect(stack.ids == [0, 2])
    #expect(Array(stack) == ["a", "c"])
    stack.removeFirst()
    #expect(stack.ids == [2])
  }

  @Test func equalityComparesIDsAndElements() {
    let first = makeStack(["a", "b"])
    let second = withDependencies {
      $0.stackElementID = .incrementing(from: 10)
    } operation: {
      StackState(["a", "b"])
    }
    #expect(first != second)
    #expect(first == makeStack(["a", "b"]))
    #expect(first != makeStack(["b", "a"]))
  }

  @Test func encodingKeepsElementsAndDecodingGivesNewIDs() throws {
    let stack = makeStack(["a", "b"])
    let data = try JSONEncoder().encode(stack)
    #expect(String(decoding: data, as: UTF8.self) == #"["a","b"]"#)

    let decoded = try withDependencies {
      $0.stackElementID = .incrementing(from: 7)
    } operation: {
      try JSONDecoder().decode(StackState<String>.self, from: data)
    }
    #expect(Array(decoded) == ["a", "b"])
    #expect(decoded.ids == [7, 8])
  }

  @Test func aDumpShowsTheIDs() {
    let stack = makeStack(["a", "b"])
    #expect(
      String(customDumping: stack) == """
        StackState(
          #0: "a",
          #1: "b"
        )
        """
    )
  }

  @Test func modifyingTheWrongCaseIsReportedAndChangesNothing() {
    var stack = withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState<Navigator.Path.State>([.counter(Counter.State())])
    }

    withKnownIssue {
      stack[id: 0, case: \.sheetHost]?.destination = .sheet(Counter.State())
    } matching: { issue in
      issue.says("Can't modify element #0 of the stack", "the element is in another case")
    }
    withKnownIssue {
      stack[id: 9, case: \.counter]?.count = 1
    } matching: { issue in
      issue.says("Can't modify element #9 of the stack: there is no element with that ID")
    }
    #expect(stack[id: 0] == .counter(Counter.State()))

    stack[id: 0, case: \.counter]?.count = 2
    #expect(stack[id: 0] == .counter(Counter.State(count: 2)))
  }

  @Test func integerLiteralIDsAreAllowedInTests() {
    let id: StackElementID = 5
    #expect(id.description == "#5")
  }

  @Test func writesToAnElementHappenInPlaceUnlessTheStackIsShared() {
    var stack = makeStack(Array(repeating: "element", count: 100))
    let storage = stack.storageIdentity
    stack[id: 0] = "changed"
    stack[id: 1]?.append("!")
    #expect(stack.storageIdentity == storage)

    var copy = stack
    #expect(copy == stack)
    copy[id: 0] = "copied"
    #expect(copy.storageIdentity != storage)
    #expect(stack.storageIdentity == storage)
    #expect(stack[id: 0] == "changed")
  }

  @Test func appendingNeverReusesAnIDFromAnotherGenerator() {
    var stack = withDependencies {
      $0.stackElementID = .incrementing(from: 40)
    } operation: {
      StackState(["a", "b"])
    }
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      stack.append("c")
      stack.append("d")
    }
    #expect(stack.ids == [40, 41, 42, 43])
    #expect(Array(stack) == ["a", "b", "c", "d"])
  }

  @Test func hashingFollowsEquality() {
    let stack = makeStack(["a", "b"])
    #expect(Set([stack, makeStack(["a", "b"])]).count == 1)
    #expect(Set([stack, makeStack(["b", "a"])]).count == 2)
  }

  @Test func takingTheLogListsTheIDsThatWentSinceTheLastTake() {
    var stack = makeStack(["a", "b", "c", "d"])
    let first = stack.takeLog()
    #expect(first.removed == [])
    stack.pop(from: 2)
    stack[id: 0] = nil
    stack.append("e")
    let taken = stack.takeLog()
    #expect(taken.start == first.version)
    #expect(taken.version == stack.version)
    #expect(taken.removed == [2, 3, 0])
    let again = stack.takeLog()
    #expect(again.start == again.version && again.removed == [])
  }

  @Test func theIDsBeforeAreReadOffTheLogOnlyWhenItStartsThere() {
    var stack = makeStack(["a", "b", "c"])
    _ = stack.takeLog()
    let before = stack.idsBefore
    #expect(before.removed(in: stack.log) == [], "nothing changed")
    stack.removeLast()
    #expect(before.removed(in: stack.log) == [2])
    #expect(stack.idsBefore.removed(in: stack.log) == [])
    stack.append("d")
    #expect(stack.idsBefore.removed(in: makeStack(["a"]).log) == nil, "another stack's log")
    var moved = stack
    moved.removeLast()
    #expect(stack.idsBefore.removed(in: moved.log) == nil, "a log that starts elsewhere")
  }

  @Test func aLogThatGrowsPastItsLimitIsGivenUp() {
    var stack = makeStack((0...StackIDsBefore.Log.limit).map { "\($0)" })
    _ = stack.takeLog()
    let before = stack.idsBefore
    stack.pop(from: 0)
    #expect(before.removed(in: stack.log) == nil)
    #expect(stack.takeLog().removed == nil)
    stack.append("again")
    stack.removeLast()
    #expect(stack.takeLog().removed?.count == 1)
  }

  @Test func aSharedStacksLogStartsAgainOnlyOnceItsStorageIsItsOwn() {
    var stack = makeStack(["a", "b"])
    _ = stack.takeLog()
    stack.removeLast()
    let copy = stack
    let taken = stack.takeLog()
    #expect(taken.removed == [1])
    #expect(StackIDsBefore(version: taken.version).removed(in: stack.log) == [])
    #expect(stack.log.start != taken.version, "not started again")
    #expect(copy.ids == [0])
  }

  private func makeStack(_ elements: [String]) -> StackState<String> {
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState(elements)
    }
  }
}

struct StackStateDifferenceTests {
  @Test func anUnchangedStackHasNoDifference() {
    let stack = makeStack(["a", "b"])
    var copy = stack
    copy[id: 0] = "A"
    #expect(stack.difference(from: stack).isEmpty)
    #expect(copy.difference(from: stack).isEmpty)
  }

  @Test func pushesAndPopsAtTheTop() {
    let old = makeStack(["a", "b", "c"])
    var new = old
    withDependencies {
      $0.stackElementID = .incrementing(from: 3)
    } operation: {
      new.removeLast()
      new.append("d")
      new.append("e")
    }
    #expect(new.difference(from: old) == .init(popped: [2], pushed: [3, 4]))
    #expect(old.difference(from: new) == .init(popped: [3, 4], pushed: [2]))
  }

  @Test func removalsBelowTheTopAreFound() {
    let old = makeStack(["a", "b", "c", "d"])
    var new = old
    new.removeAll { $0 == "b" }
    #expect(new.difference(from: old) == .init(popped: [1], pushed: []))
    #expect(StackState<String>().difference(from: old).popped == [0, 1, 2, 3])
  }

  @Test func aSnapshotDiffsLikeTheStackItWasTakenFrom() {
    var stack = makeStack(["a", "b", "c"])
    let snapshot = stack.snapshot
    stack[id: 1] = "B"
    #expect(stack.difference(from: snapshot).isEmpty)

    withDependencies {
      $0.stackElementID = .incrementing(from: 3)
    } operation: {
      stack.removeLast(2)
      stack.append("d")
    }
    #expect(stack.difference(from: snapshot) == .init(popped: [1, 2], pushed: [3]))
    #expect(stack.difference(from: stack.snapshot).isEmpty)
  }

  @Test func aSnapshotKeepsNoElementAlive() {
    var stack = makeStack(["a", "b"])
    let storage = stack.storageIdentity
    let snapshot = stack.snapshot
    stack[id: 0] = "A"
    // Had the snapshot kept the storage, this write would have copied it.
    #expect(stack.storageIdentity == storage)
    #expect(stack.difference(from: snapshot).isEmpty)
  }

  @Test func removingAllFromASharedStackKeepsTheOriginal() {
    let stack = makeStack(["a", "b"])
    var copy = stack
    copy.removeAll()
    #expect(copy.isEmpty)
    #expect(Array(stack) == ["a", "b"])
  }

  private func makeStack(_ elements: [String]) -> StackState<String> {
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState(elements)
    }
  }
}
