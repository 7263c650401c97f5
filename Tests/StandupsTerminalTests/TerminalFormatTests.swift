import Foundation
import StandupsTerminal
import Testing

struct TerminalFormatTests {
  @Test func datesInTheGivenTimeZone() {
    #expect(utc.date(day(0)) == "22 Nov 2026 09:30")
    #expect(utc.date(day(-7, hour: 17, minute: 5)) == "15 Nov 2026 17:05")
    let tokyo = TerminalFormat(timeZone: TimeZone(identifier: "Asia/Tokyo")!)
    #expect(tokyo.date(day(0)) == "22 Nov 2026 18:30")
  }

  @Test func clockReadings() {
    #expect(utc.clock(seconds: 0) == "00:00")
    #expect(utc.clock(seconds: 245) == "04:05")
    #expect(utc.clock(seconds: 3723) == "1:02:03")
    #expect(utc.clock(seconds: -5) == "00:00")
  }

  @Test func lengths() {
    #expect(utc.length(.seconds(45)) == "45 s")
    #expect(utc.length(.seconds(300)) == "5 min")
    #expect(utc.length(.seconds(3600)) == "1 h")
    #expect(utc.length(.seconds(3900)) == "1 h 5 min")
  }
}
