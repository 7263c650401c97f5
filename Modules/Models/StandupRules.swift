public import Foundation

/// What a standup may hold: one set of rules for every place a standup enters or leaves the app —
/// the database, `standups import`, `standups export`, a recovery file — so that whatever the
/// app writes, it reads back.
///
/// A value that breaks a rule is refused where it enters, with a sentence that says where and
/// why; it is never written in a form that would read back as something else. A meeting's date
/// must be one the file format writes with a four-digit year, which ISO 8601 needs: a date
/// before year 1 or after year 9999 would be written as another date, or not read back at all.
///
/// ```swift
/// var standup = Standup.mock
/// standup.duration = .seconds(2 * 24 * 60 * 60)
/// StandupRules.violation(in: standup)  // "durationSeconds": longer than a day
/// ```
public enum StandupRules {
  /// The longest a standup may last: a day, far beyond any stand-up, and far below what a
  /// `Duration` can hold, so that a hand-edited number can never overflow it.
  public static let longestDuration = Duration.seconds(24 * 60 * 60)

  /// The dates a meeting may have: from the first instant of year 1 to the last of year 9999,
  /// in UTC, counted as ISO 8601 counts them (the Gregorian calendar, before 1582 too; a
  /// calendar that switches to the Julian one would start two days earlier).
  public static let meetingDates: Range<Date> =
    Date(timeIntervalSince1970: -62_135_596_800)..<Date(timeIntervalSince1970: 253_402_300_800)

  /// A rule a standup breaks: where, in the file format's names, and why.
  public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the value is, as the file format names it: `durationSeconds`,
    /// `meetings[2].date`.
    public var path: String
    /// Why the value is refused, in a sentence.
    public var reason: String

    /// Describes a broken rule.
    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    /// The path and the reason.
    public var description: String { "\(path): \(reason)" }
  }

  /// The first rule `standup` breaks, or `nil` when it keeps them all.
  public static func violation(in standup: Standup) -> Violation? {
    if let reason = violation(ofDuration: standup.duration) {
      return Violation(path: "durationSeconds", reason: reason)
    }
    for (index, meeting) in standup.meetings.enumerated() {
      if let reason = violation(ofMeetingDate: meeting.date) {
        return Violation(path: "meetings[\(index)].date", reason: reason)
      }
    }
    return nil
  }

  /// The rule for a standup's duration, in a sentence.
  public static let durationRule =
    "A duration must be between 0 and \(longestDuration.components.seconds) seconds."

  /// The rule for a meeting's date, in a sentence.
  public static let meetingDateRule = "A meeting's date must be between the years 1 and 9999."

  /// Why a standup may not last `duration` (``durationRule``), or `nil` when it may.
  public static func violation(ofDuration duration: Duration) -> String? {
    duration < .zero || duration > longestDuration ? durationRule : nil
  }

  /// Why a meeting may not have `date` (``meetingDateRule``), or `nil` when it may.
  public static func violation(ofMeetingDate date: Date) -> String? {
    meetingDates.contains(date) ? nil : meetingDateRule
  }
}
