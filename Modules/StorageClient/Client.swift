public import Dependencies
public import DependenciesMacros
public import Foundation
public import IdentifiedCollections
public import Models

/// Keeps the standups: the one dependency the app talks to about its data.
///
/// The client speaks in changes, not collections. ``load`` reads everything once, at launch;
/// after that, ``apply`` commits each change the user makes (a ``Models/StandupsChange``) as one
/// transaction that writes only what changed, and ``changesElsewhere`` says what other
/// instances of the app committed since the last look, at a cost that does not grow with the
/// data. A meeting being recorded is written as it goes (``saveMeetingInProgress``), so that a
/// crash loses none of it: the next ``load`` keeps it as a past meeting.
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
  /// Opens the store and reads every standup. Meetings a crash interrupted become past meetings
  /// first, when the store can be written. Throws a ``StorageError``.
  public var load: @Sendable () async throws -> StoredStandups

  /// Commits one change as one transaction, writing only the rows it changes: all of it, or,
  /// when it fails (the disk is full, the file read-only), none of it. Says when the change was
  /// an edit of a standup that is no longer stored (deleted elsewhere), which changes nothing.
  /// Throws a ``StorageError``.
  public var apply: @Sendable (_ change: StandupsChange) async throws -> ChangeOutcome

  /// What other instances committed since this client last looked, or `nil` when nothing: a
  /// look that finds nothing reads no standup. Throws a ``StorageError``.
  public var changesElsewhere: @Sendable () async throws -> ChangesElsewhere?

  /// Writes what a meeting being recorded has heard so far, replacing what was written before
  /// for the same standup. Throws a ``StorageError``.
  public var saveMeetingInProgress: @Sendable (_ meeting: MeetingInProgress) async throws -> Void

  /// Forgets the meeting being recorded for a standup: it was discarded. (A meeting that is kept
  /// is forgotten by the ``StandupsChange/meetingRecorded(_:standup:)`` that keeps it.) Throws
  /// a ``StorageError``.
  public var discardMeetingInProgress: @Sendable (_ standupID: Standup.ID) async throws -> Void

  /// Moves the data that could not be read aside, unchanged, and starts an empty store in its
  /// place; returns where the data went, or `nil` when nothing was in the way. Throws a
  /// ``StorageError``.
  public var keepUnreadableDataAside: @Sendable () async throws -> String?
}

/// What came of committing a change.
public enum ChangeOutcome: Equatable, Sendable {
  /// It is stored.
  case applied
  /// It edited a standup that is no longer stored (another instance deleted it), so nothing was
  /// written.
  case standupGone(Standup.ID)
}

/// What ``StorageClient/load`` read.
public struct StoredStandups: Equatable, Sendable {
  /// The standups, in the list's order.
  public var standups: IdentifiedArrayOf<Standup>

  /// Whether changes can be written.
  public var access: StorageAccess

  /// Meetings that were being recorded when an app stopped without ending them (it crashed, or
  /// the power went), now past meetings of their standups.
  public var recoveredMeetings: [RecoveredMeeting]

  /// The data file of an earlier release, brought in because this store did not exist yet.
  public var firstLaunchImport: FirstLaunchImport?

  /// Creates a load result.
  public init(
    standups: IdentifiedArrayOf<Standup>,
    access: StorageAccess = .readWrite,
    recoveredMeetings: [RecoveredMeeting] = [],
    firstLaunchImport: FirstLaunchImport? = nil
  ) {
    self.standups = standups
    self.access = access
    self.recoveredMeetings = recoveredMeetings
    self.firstLaunchImport = firstLaunchImport
  }
}

/// Whether a store can be written.
public enum StorageAccess: Equatable, Sendable {
  /// Changes are written.
  case readWrite
  /// Nothing is written, for this reason; the store is shown as it is.
  case readOnly(ReadOnlyReason)
}

/// Why a store is only read.
public enum ReadOnlyReason: Equatable, Sendable, CustomStringConvertible {
  /// A newer release of Standups made it; writing it with this release could lose what that
  /// release keeps.
  case newerRelease(path: String)
  /// The database file is marked read-only.
  case readOnlyFile(path: String)
  /// The folder it is in is marked read-only, so the files a write needs beside it cannot be
  /// made.
  case readOnlyFolder(path: String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .newerRelease(let path):
      "\(path) was made by a newer release of Standups; this release only reads it."
    case .readOnlyFile(let path):
      "\(path) is marked read-only, so changes are not saved to it."
    case .readOnlyFolder(let path):
      "The folder \(path) is marked read-only, so changes are not saved in it."
    }
  }
}

/// What other instances committed since a client last looked.
public struct ChangesElsewhere: Equatable, Sendable {
  /// Standups added or changed, as they are stored now, in the list's order.
  public var standups: IdentifiedArrayOf<Standup>
  /// Standups deleted.
  public var deleted: [Standup.ID]

  /// Creates a report of changes.
  public init(standups: IdentifiedArrayOf<Standup> = [], deleted: [Standup.ID] = []) {
    self.standups = standups
    self.deleted = deleted
  }

  /// Applies the changes to what an app shows: changed standups replaced, new ones added at the
  /// end, deleted ones removed.
  public func apply(to shown: inout IdentifiedArrayOf<Standup>) {
    for id in deleted {
      shown.remove(id: id)
    }
    for standup in standups {
      shown[id: standup.id] = standup
    }
  }
}

/// A meeting being recorded: what is written as it goes.
public struct MeetingInProgress: Equatable, Sendable {
  /// The standup being met, as the recorder has it: stored again with the meeting if it is
  /// deleted elsewhere before the meeting is kept.
  public var standup: Standup
  /// When the meeting started.
  public var startedAt: Date
  /// What was said so far.
  public var transcript: String

  /// Describes a meeting in progress.
  public init(standup: Standup, startedAt: Date, transcript: String) {
    self.standup = standup
    self.startedAt = startedAt
    self.transcript = transcript
  }
}

/// A meeting that an app stopped recording without ending it, kept as a past meeting.
public struct RecoveredMeeting: Equatable, Sendable {
  /// The meeting's standup.
  public var standupID: Standup.ID
  /// The meeting's standup, by title.
  public var standupTitle: String
  /// The meeting, dated when it was last written.
  public var meeting: Meeting

  /// Describes a recovered meeting.
  public init(standupID: Standup.ID, standupTitle: String, meeting: Meeting) {
    self.standupID = standupID
    self.standupTitle = standupTitle
    self.meeting = meeting
  }
}

/// How the data file of an earlier release was brought in on the first launch.
public enum FirstLaunchImport: Equatable, Sendable {
  /// Its standups were imported; the file was left as it was.
  case imported(ImportReport)
  /// It could not be read, so nothing was imported; the file was left as it was.
  case failed(path: String, reason: String)
}

/// What bringing standups in from a file did.
public struct ImportReport: Equatable, Sendable, CustomStringConvertible {
  /// The file the standups came from.
  public var path: String
  /// The titles of the standups added.
  public var added: [String]
  /// The standups that were there already and changed.
  public var changed: [ChangedStandup]
  /// How many standups were there already, the same.
  public var unchanged: Int

  /// Creates a report.
  public init(
    path: String,
    added: [String] = [],
    changed: [ChangedStandup] = [],
    unchanged: Int = 0
  ) {
    self.path = path
    self.added = added
    self.changed = changed
    self.unchanged = unchanged
  }

  /// A standup that was there already and changed.
  public struct ChangedStandup: Equatable, Sendable {
    /// Its title, after the change.
    public var title: String
    /// What changed, in words: `["title", "a meeting added"]`.
    public var parts: [String]

    /// Describes a changed standup.
    public init(title: String, parts: [String]) {
      self.title = title
      self.parts = parts
    }
  }

  /// The most standups the report names; it counts the others.
  public static let mostTitlesNamed = 20

  /// The most characters of a title the report quotes, so that each takes at most a line of a
  /// terminal; a longer one is cut with "…".
  public static let longestTitleQuoted = 60

  /// What was done, in a sentence or two. The first ``mostTitlesNamed`` standups added or changed
  /// are named, each title cut to ``longestTitleQuoted`` characters, and the rest counted: a file
  /// can hold any number of standups, with titles of any length.
  public var description: String {
    var sentences: [String] = []
    var named = 0
    if !added.isEmpty {
      let titles = added.lazy.map(Self.quoted)
      sentences.append("Added \(Self.count(added.count))\(Self.listing(titles, named: &named)).")
    }
    if !changed.isEmpty {
      let titles = changed.lazy.map { "\(Self.quoted($0.title)) (\($0.parts.joined(separator: ", ")))" }
      sentences.append("Changed \(Self.count(changed.count))\(Self.listing(titles, named: &named)).")
    }
    if unchanged > 0 {
      sentences.append("\(Self.count(unchanged).capitalizingFirst) already there, unchanged.")
    }
    return sentences.isEmpty ? "The file holds no standups." : sentences.joined(separator: " ")
  }

  private static func count(_ number: Int) -> String {
    number == 1 ? "1 standup" : "\(number) standups"
  }

  /// `": "` and the entries, as many as are left to name of ``mostTitlesNamed``, and how many
  /// more there are; nothing when none is left to name.
  private static func listing(
    _ entries: some Collection<String>,
    named: inout Int
  ) -> String {
    let shown = Array(entries.prefix(max(mostTitlesNamed - named, 0)))
    named += shown.count
    guard !shown.isEmpty else { return "" }
    let rest = entries.count - shown.count
    return ": " + shown.joined(separator: ", ") + (rest > 0 ? ", and \(rest) more" : "")
  }

  private static func quoted(_ title: String) -> String {
    let isLong = !title.dropFirst(longestTitleQuoted).isEmpty
    return "\"" + (isLong ? String(title.prefix(longestTitleQuoted - 1)) + "…" : title) + "\""
  }
}

extension String {
  fileprivate var capitalizingFirst: String {
    prefix(1).uppercased() + dropFirst()
  }
}

extension DependencyValues {
  /// Keeps the standups. See ``StorageClient``.
  public var storageClient: StorageClient {
    get { self[StorageClient.self] }
    set { self[StorageClient.self] = newValue }
  }
}
