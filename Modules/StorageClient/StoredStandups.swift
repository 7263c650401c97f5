public import IdentifiedCollections
public import Models

/// What ``StorageClient/load`` read.
public struct StoredStandups: Equatable, Sendable {
  /// The standups, in the list's order.
  public var standups: IdentifiedArrayOf<Standup>

  /// Whether changes can be written.
  public var access: StorageAccess

  /// Standups whose rows hold what no standup may: left out, and left as they are.
  public var unreadable: [UnreadableStandup]

  /// What opening wrote, or why that waits.
  public var opening: Opening

  /// The user's values that a save elsewhere or another member's change replaced, not put away
  /// yet: told at launch, each with a way to put it back, whether they were replaced while the
  /// app ran or while it was closed. Empty when the store is only read.
  public var replacedValues: [ReplacedValue]

  /// Creates a load result.
  public init(
    standups: IdentifiedArrayOf<Standup>,
    access: StorageAccess = .readWrite,
    unreadable: [UnreadableStandup] = [],
    opening: Opening = .finished(OpeningReport()),
    replacedValues: [ReplacedValue] = []
  ) {
    self.standups = standups
    self.access = access
    self.unreadable = unreadable
    self.opening = opening
    self.replacedValues = replacedValues
  }
}

/// Whether what opening writes is done.
public enum Opening: Equatable, Sendable {
  /// It is done, or there was nothing to do; the loaded standups already show what it wrote.
  case finished(OpeningReport)
  /// Another program holds the write lock (or the disk refused): the standups were read, and
  /// ``StorageClient/finishOpening`` is to be tried again until it succeeds.
  case waiting(StorageError)
}

/// What opening wrote: meetings a crash interrupted kept, an earlier release's file brought in.
public struct OpeningReport: Equatable, Sendable {
  /// Meetings that were being recorded when an app stopped without ending them (it crashed, or
  /// the power went), now past meetings of their standups.
  public var recoveredMeetings: [RecoveredMeeting]

  /// The data file of an earlier release, brought in once.
  public var earlierRelease: FirstLaunchImport?

  /// The standups opening changed, as they are now.
  public var standups: IdentifiedArrayOf<Standup>

  /// Creates a report.
  public init(
    recoveredMeetings: [RecoveredMeeting] = [],
    earlierRelease: FirstLaunchImport? = nil,
    standups: IdentifiedArrayOf<Standup> = []
  ) {
    self.recoveredMeetings = recoveredMeetings
    self.earlierRelease = earlierRelease
    self.standups = standups
  }

  /// The standups the earlier release's file added or changed.
  var importedIDs: [Standup.ID] {
    guard case .imported(let report)? = earlierRelease else { return [] }
    return report.standupIDs
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
  /// The file has another name too (a hard link): SQLite keeps its log beside the name it was
  /// opened by, so two instances on two names would each keep their own, and lose changes.
  case anotherName(path: String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .newerRelease(let path):
      "\(path) was made by a newer release of Standups; this release only reads it."
    case .readOnlyFile(let path):
      "\(path) is marked read-only, so changes are not saved to it."
    case .readOnlyFolder(let path):
      "The folder \(path) is marked read-only, so changes are not saved in it."
    case .anotherName(let path):
      "\(path) has another name too (a hard link), and a database shared under two names can "
        + "lose changes, so this instance only reads it."
    }
  }
}

/// A standup whose rows hold what no standup may (another program wrote them, or the disk damaged
/// them): it is not shown, never written over, and every other standup is read and written as
/// usual.
public struct UnreadableStandup: Error, Equatable, Sendable, CustomStringConvertible {
  /// Its ID, as stored.
  public var id: String
  /// Its title, as stored.
  public var title: String
  /// What cannot be read, such as `standup.theme holds "nonsense"`.
  public var problem: String

  /// Describes an unreadable standup.
  public init(id: String, title: String, problem: String) {
    self.id = id
    self.title = title
    self.problem = problem
  }

  /// The standup named, and why it cannot be read.
  public var description: String {
    let title = title.count > 60 ? String(title.prefix(60)) + "…" : title
    return "“\(title)” cannot be read (\(problem))"
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

/// How the data file of an earlier release was brought in.
public enum FirstLaunchImport: Equatable, Sendable {
  /// Its standups were imported; the file was left as it was.
  case imported(ImportReport)
  /// It could not be read, so nothing was imported; the file was left as it was.
  case failed(path: String, reason: String)
}
