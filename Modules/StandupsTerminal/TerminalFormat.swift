public import Foundation

/// How the screens write dates, clock readings and lengths: fixed English wording in a given
/// time zone, so that what a screen shows is a pure function of its state (and a test can pin
/// the zone).
///
/// ```swift
/// let format = TerminalFormat(timeZone: .current)
/// format.date(meeting.date)  // "22 Nov 2026 09:30"
/// ```
public struct TerminalFormat: Sendable {
  /// The time zone dates are shown in.
  public var timeZone: TimeZone {
    get { calendar.timeZone }
    set { calendar.timeZone = newValue }
  }

  // NB: Made once: a screen of past meetings formats a date per row, every frame.
  private var calendar: Calendar

  /// Creates a format.
  ///
  /// - Parameter timeZone: The time zone dates are shown in.
  public init(timeZone: TimeZone) {
    calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
  }

  /// A day and time, as in `22 Nov 2026 09:30`.
  public func date(_ date: Date) -> String {
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let month = months[((parts.month ?? 1) - 1) % 12]
    return "\(parts.day ?? 1) \(month) \(parts.year ?? 0) "
      + "\(twoDigits(parts.hour ?? 0)):\(twoDigits(parts.minute ?? 0))"
  }

  /// A clock reading, as in `04:05` or `1:02:03`.
  public func clock(seconds: Int) -> String {
    let seconds = max(seconds, 0)
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
    let minutesAndSeconds = "\(twoDigits(minutes)):\(twoDigits(rest))"
    return hours > 0 ? "\(hours):\(minutesAndSeconds)" : minutesAndSeconds
  }

  /// A meeting's length, as in `5 min`, `1 h 5 min` or `45 s`.
  public func length(_ duration: Duration) -> String {
    let seconds = Int(duration.components.seconds)
    guard seconds >= 60 else { return "\(seconds) s" }
    let (hours, minutes) = (seconds / 3600, seconds / 60 % 60)
    guard hours > 0 else { return "\(minutes) min" }
    return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h"
  }

  private func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }
}
