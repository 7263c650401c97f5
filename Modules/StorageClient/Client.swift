public import Dependencies
public import DependenciesMacros
public import Models

/// Keeps the standups: the one dependency the app talks to about its data.
///
/// The client speaks in changes, not collections. ``load`` reads everything once, at launch;
/// after that, ``apply`` commits each change the user makes (a ``/Models/StandupsChange``) as one
/// transaction that writes only what changed, and ``changesElsewhere`` says what other
/// instances of the app committed since it last read them, at a cost that does not grow with the
/// data. A meeting being recorded is written as it goes (``saveMeetingInProgress``), so that a
/// crash loses none of it: the next opening keeps it as a past meeting.
///
/// Other programs share the database. Reading never waits for one; a write that finds the
/// database held fails after a moment (``StorageError/isWorthRetrying``), and is tried again
/// later by the caller, as is what opening writes (``finishOpening``).
///
/// The live client keeps the standups in SQLite (``database(at:importingOnFirstLaunch:)``);
/// tests and previews use the same code on a database in memory (``inMemory(_:)``).
///
/// ```swift
/// @Dependency(\.storageClient) var storage
///
/// let stored = try await storage.load()
/// try await storage.apply(.edited(id, StandupEdit(title: "Design review")))
/// if let changes = try await storage.changesElsewhere() {
///   // show changes.standups, remove changes.deleted
/// }
/// ```
@DependencyClient
public struct StorageClient: Sendable {
  /// Opens the store and reads every standup; finishes opening too, unless another program
  /// holds the write lock (``StoredStandups/opening``). Throws a ``StorageError``.
  public var load: @Sendable () async throws -> StoredStandups

  /// Writes what opening still has to (``Opening/waiting(_:)``): the schema migrated, the
  /// meetings a crash interrupted kept, an earlier release's file brought in. Throws a
  /// ``StorageError``.
  public var finishOpening: @Sendable () async throws -> OpeningReport

  /// Commits one change as one transaction, writing only the rows it changes: all of it, or,
  /// when it fails (the disk is full, another program holds the database), none of it. Says when
  /// the change was an edit of a standup that is no longer stored (deleted elsewhere), which
  /// changes nothing. Throws a ``StorageError``.
  public var apply: @Sendable (_ change: StandupsChange) async throws -> ChangeOutcome

  /// What other instances committed since this client last read them, or `nil` when nothing:
  /// a read that finds nothing reads no standup. Throws a ``StorageError``.
  public var changesElsewhere: @Sendable () async throws -> ChangesElsewhere?

  /// Forgets a value another save replaced: the user has read about it (and perhaps put it
  /// back). Throws a ``StorageError``.
  public var putAwayReplacedValue: @Sendable (_ id: ReplacedValue.ID) async throws -> Void

  /// Writes what a meeting being recorded has heard so far, replacing what was written before
  /// for the same standup. Throws a ``StorageError``.
  public var saveMeetingInProgress: @Sendable (_ meeting: MeetingInProgress) async throws -> Void

  /// Forgets the meeting being recorded for a standup: it was discarded. (A meeting that is kept is
  /// forgotten by the ``/Models/StandupsChange/meetingRecorded(_:standup:)`` that keeps it.) Throws
  /// a ``StorageError``.
  public var discardMeetingInProgress: @Sendable (_ standupID: Standup.ID) async throws -> Void

  /// Moves the data that could not be read aside, unchanged, and starts an empty store in its
  /// place; returns where the data went, or `nil` when nothing was in the way. Throws a
  /// ``StorageError``.
  public var keepUnreadableDataAside: @Sendable () async throws -> String?

  /// Leaves the database file whole on its own, for a clean exit: a copy of that one file is a
  /// backup. Throws a ``StorageError``.
  public var checkpoint: @Sendable () async throws -> Void
}

extension DependencyValues {
  /// Keeps the standups. See ``StorageClient``.
  public var storageClient: StorageClient {
    get { self[StorageClient.self] }
    set { self[StorageClient.self] = newValue }
  }
}
