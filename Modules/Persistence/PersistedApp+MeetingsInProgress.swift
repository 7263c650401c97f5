import AppFeature
import Composable
import Models
import StorageClient

// A meeting being recorded is written as it goes: when its recorder appears, and whenever its
// transcript changes. A meeting kept becomes a past meeting by the change that keeps it, which
// also forgets what was written as it went; one that ends any other way is forgotten. If the app
// stops without ending it, the next launch keeps what was written as a past meeting.

extension PersistedApp {
  /// After any action: writes what changed in the meetings being recorded.
  func followMeetingsInProgress(after action: Action, _ state: inout State) -> Effect<Action> {
    guard state.storage.isWritable else { return .none }
    var effects: [Effect<Action>] = []
    let recordings = state.app.recordings
    for (id, recording) in state.storage.meetingsInProgress.sorted(by: { $0.key < $1.key })
    where recordings[id] == nil {
      state.storage.meetingsInProgress[id] = nil
      if case .app(let appAction) = action, appAction.keepsTheMeeting(recordedBy: id) {
        continue
      }
      effects.append(enqueue(.meetingDiscarded(recording.standupID), &state))
    }
    for (id, meeting) in recordings.sorted(by: { $0.key < $1.key }) {
      let written = state.storage.meetingsInProgress[id]
      guard written?.transcript != meeting.transcript || written == nil else { continue }
      let recording = StorageState.Recording(
        id: written?.id ?? Meeting.ID(uuid()), startedAt: written?.startedAt ?? now,
        transcript: meeting.transcript, standupID: meeting.standup.id)
      state.storage.meetingsInProgress[id] = recording
      let write = MeetingInProgress(
        id: recording.id, standup: meeting.standup, startedAt: recording.startedAt,
        transcript: meeting.transcript)
      effects.append(enqueueReplacingWaiting(write, &state))
    }
    return .merge(effects)
  }

  /// Queues what a meeting has heard so far, in place of an earlier version still waiting its
  /// turn: only the latest needs writing.
  private func enqueueReplacingWaiting(
    _ meeting: MeetingInProgress,
    _ state: inout State
  ) -> Effect<Action> {
    let waiting = state.storage.pendingWrites.indices.dropFirst(state.storage.isWriting ? 1 : 0)
    if let index = waiting.last(where: {
      if case .meetingInProgress(let queued) = state.storage.pendingWrites[$0] {
        return queued.standup.id == meeting.standup.id
      }
      return false
    }), index == state.storage.pendingWrites.indices.last {
      state.storage.pendingWrites[index] = .meetingInProgress(meeting)
      return .none
    }
    return enqueue(.meetingInProgress(meeting), &state)
  }
}
