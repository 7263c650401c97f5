import Foundation
import IdentifiedCollections
import Models
import PropertyBased
import Testing

/// What is written is what is read back: exactly, for everything the app can hold.
struct RoundTripTests {
  @Test func theMocksReadBackEqual() throws {
    let standups: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock, .productMock]
    #expect(
      try StandupsFile.decode(StandupsFile(standups: standups).encoded()).standups == standups)
  }

  @Test(arguments: [1, 2, 3, 42, 2026])
  func randomStandupsReadBackEqual(seed: UInt64) throws {
    var random = Xoshiro(seed: (seed, ~seed, seed &* 31, seed ^ 0x5DEE_CE66))
    let standups = IdentifiedArray(
      uniqueElements: (0..<20).map { _ in Standup.random(using: &random) }
    )

    let read = try StandupsFile.decode(StandupsFile(standups: standups).encoded()).standups

    #expect(read == standups, "seed \(seed)")
  }

  @Test func aClockReadingKeepsEveryDigit() throws {
    let instants: [TimeInterval] = [
      1_763_625_600.000_123_4,
      1_763_625_600.999_999_999,
      1_800_000_000.5,
      -86_400.25,
      0.000_000_001,
    ]
    for instant in instants {
      var standup = Standup.mock
      standup.meetings[0].date = Date(timeIntervalSince1970: instant)
      let read = try StandupsFile.decode(StandupsFile(standups: [standup]).encoded())
      #expect(read.standups[0].meetings[0].date == standup.meetings[0].date, "\(instant)")
    }
  }

  @Test func aWholeSecondIsWrittenWithoutFraction() throws {
    var standup = Standup.mock
    standup.meetings[0].date = Date(timeIntervalSince1970: 1_763_625_600)
    let json = String(decoding: try StandupsFile(standups: [standup]).encoded(), as: UTF8.self)
    #expect(json.contains(#""date" : "2025-11-20T08:00:00Z""#))
  }
}
