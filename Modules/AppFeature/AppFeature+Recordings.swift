public import Composable
public import Models
import StandupForm

// The meetings being recorded on the stack, as whoever runs the app sees them from outside:
// what it keeps as they go (so that a crash loses none of them), and when one is handed over to
// be kept.

extension AppFeature.State {
  /// A meeting being recorded: its standup and what was said so far.
  public struct Recording: Equatable, Sendable {
    /// The standup being met, as its recorder has it.
    public var standup: Standup
    /// What was said so far.
    public var transcript: String
  }

  /// The meetings being recorded, by their recorder's screen, until the screen closes: a
  /// meeting kept closes it in the same action that hands the meeting over
  /// (``AppFeature/Action/keepsTheMeeting(recordedBy:)``).
  public var recordings: [StackElementID: Recording] {
    var recordings: [StackElementID: Recording] = [:]
    for id in path.ids {
      guard case .record(let meeting)? = path[id: id] else { continue }
      recordings[id] = Recording(standup: meeting.standup, transcript: meeting.transcript)
    }
    return recordings
  }
}

extension AppFeature.Action {
  /// Whether this is the recorder `id` handing its meeting over to be kept (which closes it).
  public func keepsTheMeeting(recordedBy id: StackElementID) -> Bool {
    guard case .path(.element(let element, .record(.delegate(.save)))) = self else { return false }
    return element == id
  }
}

extension AppFeature.State {
  /// Whether the edit form is open on the standup `id`.
  public func isEditing(_ id: Standup.ID) -> Bool {
    guard case .edit(let form)? = destination else { return false }
    return form.original.id == id
  }

  /// Whether a meeting of the standup `id` is being recorded.
  public func isRecording(_ id: Standup.ID) -> Bool {
    recordings.values.contains { $0.standup.id == id }
  }

  /// Whether a meeting is being recorded on any screen: a message that can wait should, so that
  /// nothing comes between the user's keys and the transcript.
  public var isRecordingAMeeting: Bool {
    path.contains { if case .record = $0 { true } else { false } }
  }
}
