public import Composable
public import Foundation
public import Models
public import StorageClient

extension PersistedApp {
  /// Where the standups' storage has got: whether changes are written, the writes not done yet
  /// and why the first one waits, the meetings being recorded, and what the user is to be told.
  public struct StorageState: Equatable, Sendable {
    /// What is done with changes.
    public var status: Status

    /// Writes not done yet, oldest first; the first is being written while ``isWriting``. Each is
    /// idempotent, so that writing one again (a flush after a write it interrupted) does no harm.
    public var pendingWrites: [PendingWrite] = []

    /// Whether the first pending write is being written.
    public var isWriting = false

    /// Whether the pending writes are being flushed, as the app exits: one that fails is not
    /// tried again.
    public var isFlushing = false

    /// Why the first pending write failed, while it waits to be tried again.
    public var lastWriteError: StorageError?

    /// How many times in a row the first pending write has failed: what spaces out the next try
    /// (``retryDelay``).
    public var failedAttempts = 0

    /// Whether the standups changed in ways the database lacks for good: while they could not
    /// be written (``Status``), or a change that was set aside. A front end offers them in a
    /// file at exit.
    public var hasChangesOnlyInMemory = false

    /// Where the data that could not be read was kept, once it was.
    public var backup: String?

    /// Alerts held back while the user answers another one, or records a meeting; oldest first.
    public var waitingAlerts: [AlertState<Action.Alert>] = []

    /// The meetings being recorded, by the recorder's screen.
    public var meetingsInProgress: [StackElementID: Recording] = [:]

    /// Standups another instance deleted while the user edits or records them: they stay on
    /// screen while the user is asked whether to keep them.
    public var deletedElsewhere: [Standup.ID] = []

    /// Values of the user's that another instance's save replaced, not yet put away: each is
    /// told in an alert that offers to put it back.
    public var replacedValues: [ReplacedValue] = []

    /// How many reads of other instances' changes in a row have failed.
    public var failedReadsInARow = 0

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
      /// The stored data could not be read, or the path holds no data file, or the file opened
      /// is no longer the one at the path; changes stay in memory, and nothing is written until
      /// the user has the data kept aside (where that is offered).
      case notSaving(StorageError)
      /// The standups could not be read yet: another program holds the database. Changes wait,
      /// and loading is tried again until it succeeds.
      case waitingToLoad(StorageError)
    }

    /// A write to do.
    public enum PendingWrite: Equatable, Sendable {
      /// What opening the store still has to write (``StorageClient/finishOpening``).
      case finishOpening
      /// A change the user made.
      case change(StandupsChange)
      /// What a meeting being recorded has heard so far.
      case meetingInProgress(MeetingInProgress)
      /// A meeting being recorded was discarded.
      case meetingDiscarded(Standup.ID)
      /// A replaced value the user has read about.
      case putAway(ReplacedValue.ID)
    }

    /// A meeting being recorded, as far as it was given to be written.
    public struct Recording: Equatable, Sendable {
      /// The meeting's ID, should a crash stop its recording.
      public var id: Meeting.ID
      /// When it started.
      public var startedAt: Date
      /// Its transcript as last given to be written.
      public var transcript: String
      /// Its standup.
      public var standupID: Standup.ID

      /// Describes a meeting being recorded.
      public init(id: Meeting.ID, startedAt: Date, transcript: String, standupID: Standup.ID) {
        self.id = id
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

    /// How long to wait before trying the first pending write again: a second after the first
    /// failure, doubling to at most half a minute, so that a held lock or a full disk costs a
    /// try now and then, and a write lands soon after the lock or the space is free.
    public var retryDelay: Duration {
      .seconds(min(1 << min(max(failedAttempts - 1, 0), 5), 30))
    }

    /// A line for a status bar: why changes are not being saved, why the last write failed, or
    /// why other instances' changes cannot be seen. `nil` when all is well.
    public var problem: String? {
      switch status {
      case .notSaving(let error):
        return "Changes are not being saved. \(error)"
      case .readOnly(let reason):
        return "Read-only: \(reason)"
      case .waitingToLoad(let error):
        return Self.waiting(for: error)
          ?? "The standups could not be read yet: \(error) Trying again."
      case .writable:
        if let lastWriteError {
          return Self.waiting(for: lastWriteError)
            ?? "\(lastWriteError) Trying again in a moment."
        }
        return failedReadsInARow >= Self.failedReadsBeforeReporting
          ? "Changes made in other instances of Standups cannot be seen right now." : nil
      }
    }

    /// How many failed reads in a row are told: one can fail while another program holds the
    /// database for a moment; three in a row, six seconds, are worth a word.
    static let failedReadsBeforeReporting = 3

    /// "Waiting for another program…", when `error` is another program holding the database.
    private static func waiting(for error: StorageError) -> String? {
      switch error {
      case .writeFailed(let problem) where problem.reason == .busy:
        "Waiting for another program that holds the database (\(problem.path)); your changes "
          + "are saved once it lets go."
      case .unreadable(let problem) where problem.reason == .busy:
        "Waiting for another program that holds the database (\(problem.path)) to read the "
          + "standups."
      default:
        nil
      }
    }
  }
}
