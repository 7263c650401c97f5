import Composable
import Testing

struct HashableIdentityTests {
  @Test func identitiesCompareTheirValuesHoweverTheyAreKept() {
    // 16 bytes of a trivial type: kept as bytes. 24 bytes, or a string: kept in a box.
    struct Pair: Hashable, Sendable { var first, second: Int }
    struct Triple: Hashable, Sendable { var first, second, third: Int }
    // Values that all hash alike: only comparing them tells them apart.
    struct Clash<Value: Hashable & Sendable>: Hashable, Sendable {
      var value: Value
      func hash(into hasher: inout Hasher) {}
    }
    // Equal values whose bytes differ: the identity has to ask the type.
    struct Letter: Hashable, Sendable {
      var ascii: UInt8
      static func == (lhs: Self, rhs: Self) -> Bool { lhs.ascii | 0x20 == rhs.ascii | 0x20 }
      func hash(into hasher: inout Hasher) { hasher.combine(ascii | 0x20) }
    }

    #expect(HashableIdentity(7) == HashableIdentity(7))
    #expect(HashableIdentity(7) != HashableIdentity(8))
    #expect(
      HashableIdentity(Pair(first: 1, second: 2)) == HashableIdentity(Pair(first: 1, second: 2)))
    #expect(
      HashableIdentity(Pair(first: 1, second: 2)) != HashableIdentity(Pair(first: 1, second: 3)))
    #expect(
      HashableIdentity(Triple(first: 1, second: 2, third: 3))
        == HashableIdentity(Triple(first: 1, second: 2, third: 3))
    )
    #expect(
      HashableIdentity(Triple(first: 1, second: 2, third: 3))
        != HashableIdentity(Triple(first: 1, second: 2, third: 4))
    )
    #expect(HashableIdentity("search") == HashableIdentity("search"))
    #expect(HashableIdentity("search") != HashableIdentity("watch"))
    #expect(HashableIdentity(Clash(value: 1)) != HashableIdentity(Clash(value: 2)))
    #expect(HashableIdentity(Clash(value: "a")) != HashableIdentity(Clash(value: "b")))
    #expect(HashableIdentity(Clash(value: "a")) == HashableIdentity(Clash(value: "a")))
    #expect(HashableIdentity(Letter(ascii: 65)) == HashableIdentity(Letter(ascii: 97)))
    #expect(HashableIdentity(Letter(ascii: 65)) != HashableIdentity(Letter(ascii: 66)))
    #expect(HashableIdentity(0.0) == HashableIdentity(-0.0))
    // An identity equals its own copy, however its value compares with itself.
    struct Reading: Hashable, Sendable {
      var name: String
      var value: Double
    }
    let nan = HashableIdentity(Double.nan)
    let boxedNaN = HashableIdentity(Reading(name: "level", value: .nan))
    #expect(nan == nan)
    #expect(boxedNaN == boxedNaN)
    #expect(HashableIdentity(Reading(name: "level", value: .nan)) != boxedNaN)

    #expect(
      HashableIdentity(Pair(first: 1, second: 2)).value(as: Pair.self) == Pair(first: 1, second: 2))
    #expect(
      HashableIdentity(Triple(first: 1, second: 2, third: 3)).value(as: Triple.self)
        == Triple(first: 1, second: 2, third: 3)
    )
    #expect(HashableIdentity(7).value(as: Int8.self) == nil)
    #expect(HashableIdentity("search").value(as: Substring.self) == nil)
    #expect(HashableIdentity("search").description == "search")
    #expect(HashableIdentity(7).description == "7")
  }

  @Test func distinctEmptyIDTypesHashApart() {
    struct First: Hashable, Sendable {}
    struct Second: Hashable, Sendable {}
    enum Only: Hashable, Sendable { case one }

    let hashes = Set([
      HashableIdentity(First()).hashValue,
      HashableIdentity(Second()).hashValue,
      HashableIdentity(Only.one).hashValue,
    ])
    #expect(hashes.count == 3)
    #expect(HashableIdentity(First()) != HashableIdentity(Second()))
    #expect(HashableIdentity(1) != HashableIdentity(Int8(1)))
    #expect(HashableIdentity(First()) == HashableIdentity(First()))
  }
}
