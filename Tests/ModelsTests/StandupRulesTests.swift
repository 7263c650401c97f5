import Foundation
import Models
import Testing

/// One set of rules for what a standup may hold: what keeps them is written and read back, what
/// breaks them is refused where it enters, never written as something else.
struct StandupRulesTests {
  @Test func aStandupAtTheEdgesOfTheRulesIsWrittenAndReadBack() throws {
    var standup = Standup.mock
    standup.duration = StandupRules.longestDuration
    standup.meetings[0].date = StandupRules.meetingDates.lowerBound
    #expect(StandupRules.violation(in: standup) == nil)

    let file = StandupsFile(standups: [standup])
    #expect(try StandupsFile.decode(file.encoded()).standups == [standup])
  }

  @Test func aStandupLongerThanADayIsRefusedAndNamesWhere() {
    var standup = Standup.mock
    standup.duration = StandupRules.longestDuration + .seconds(1)
    #expect(StandupRules.violation(in: standup)?.path == "durationSeconds")
  }

  /// −10¹⁵ s once exported as year −4712: a date the file format cannot write is refused.
  @Test(arguments: [-1e15, 1e15, -62_135_596_801.0, 253_402_300_800.0])
  func aMeetingDateExportCannotWriteIsRefusedNotWrittenWrongly(since1970 seconds: Double) {
    var standup = Standup.mock
    standup.meetings[0].date = Date(timeIntervalSince1970: seconds)
    #expect(StandupRules.violation(in: standup)?.path == "meetings[0].date")
    #expect(throws: (any Error).self) { try StandupsFile(standups: [standup]).encoded() }
  }
}
