public import Composable
public import Foundation
public import Models
public import StorageClient

extension PersistedApp {
  /// Where the standups' storage has got: whether changes are written, the writes not done yet,
  /// and the meetings being recorded.
  public struct Storage: Equatable, Sendable {
    /// What is done with changes.
    public var status: Status

    /// Writes not done yet, oldest first; the first is being written while ``isWriting``. Each is
    /// idempotent, so that writing one again (a flush after a write it interrupted) does no harm.
    public var pendingWrites: [PendingWrite] = []

    /// Whether the first pending write is being written.
    public var isWriting = false

    /// Why the last write failed, while it is not yet written; the next change, or a flush,
    /// tries again.
    public var lastWriteError: StorageError?

    /// Whether the standups changed while they could not be written (``Status``): changes that
    /// are only in memory.
    public var hasChangesOnlyInMemory = false

    /// Where the data that could not be read was kept, once it was.
    public var backup: String?

    /// Alerts held back while the user answers another one, oldest first.
    public var waitingAlerts: [AlertState<Action.Alert>] = []

    /// The meetings being recorded, by the recorder's screen.
    public var meetingsInProgress: [StackElementID: Recording] = [:]

    /// Standups another instance deleted while the user edits or records them: they stay on
    /// screen while the user is asked whether to keep them.
    public var deletedElsewhere: [Standup.ID] = []

    /// A line for the front end to show until the user puts it away (``Action/noticeDismissed``):
    /// what happened to the data that the user did not do.
    public var notice: String?

    /// Creates the storage's state.
    public init(status: Status) {
      self.status = status
    }

    /// What is done with changes to the standups.
    public enum Status: Equatable, Sendable {
      /// They are written.
      case writable
      /// The store is only read; changes stay in memory.
      case readOnly(ReadOnlyReason)
      /// The stored data could not be read, or the path holds no data file; changes stay in
      /// memory, and nothing is written until the user has the data kept aside.
      case notSaving(StorageError)
    }

    /// A write to do.
    public enum PendingWrite: Equatable, Sendable {
      /// A change the user made.
      case change(StandupsChange)
      /// What a meeting being recorded has heard so far.
      case meetingInProgress(MeetingInProgress)
      /// A meeting being recorded was discarded.
      case meetingDiscarded(Standup.ID)
    }

    /// A meeting being recorded, as far as it was given to be written.
    public struct Recording: Equatable, Sendable {
      /// When it started.
      public var startedAt: Date
      /// Its transcript as last given to be written.
      public var transcript: String
      /// Its standup.
      public var standupID: Standup.ID

      /// Describes a meeting being recorded.
      public init(startedAt: Date, transcript: String, standupID: Standup.ID) {
        self.startedAt = startedAt
        self.transcript = transcript
        self.standupID = standupID
      }
    }

    /// Whether changes are written.
    public var isWritable: Bool {
      status == .writable
    }

    /// Whether some changes are not in the database: they could not be written (yet), or the
    /// store is not written at all. Once a flush is over, a front end offers them in a file.
    public var hasChangesNotInTheDataFile: Bool {
      hasChangesOnlyInMemory
        || pendingWrites.contains { if case .change = $0 { true } else { false } }
    }

    /// A line for a status bar: why changes are not being saved, or why the last write failed.
    /// `nil` when all is well.
    public var problem: String? {
      switch status {
      case .notSaving(let error):
        return "Changes are not being saved. \(error)"
      case .readOnly(let reason):
        return "Read-only: \(reason)"
      case .writable:
        return lastWriteError.map(\.description)
      }
    }
  }
}
