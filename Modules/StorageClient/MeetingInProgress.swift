public import Foundation
public import Models

/// A meeting being recorded: what is written as it goes.
public struct MeetingInProgress: Equatable, Sendable {
  /// The ID the meeting gets if a crash stops its recording: the same in an export taken
  /// meanwhile and in the next launch's recovery.
  public var id: Meeting.ID
  /// The standup being met, as the recorder has it: stored again with the meeting if it is
  /// deleted elsewhere before the meeting is kept.
  public var standup: Standup
  /// When the meeting started.
  public var startedAt: Date
  /// What was said so far.
  public var transcript: String

  /// Describes a meeting in progress.
  public init(id: Meeting.ID, standup: Standup, startedAt: Date, transcript: String) {
    self.id = id
    self.standup = standup
    self.startedAt = startedAt
    self.transcript = transcript
  }
}
