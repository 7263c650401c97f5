import IdentifiedCollections
import Models

/// The rules that keep stored data safe, shared by every store so that they are written once:
/// what the store knows about its data decides whether it may be written over, and revisions
/// decide whether a write is stale.
struct StoragePolicy: Sendable {
  /// What the store knows about the data it would write over.
  enum Knowledge: Equatable, Sendable {
    /// Nothing yet: the data has not been looked at.
    case unknown
    /// There is no data, or it was kept aside: writing loses nothing.
    case nothingToLose
    /// The data was read, in the current format.
    case read
    /// The data was read, but comes from a newer release.
    case newerRelease(Int)
    /// The data exists but could not be read.
    case unread
    /// What is at the path is not a data file: it is never written.
    case notADataFile
  }

  private(set) var knowledge = Knowledge.unknown
  private var lastRevision: Int?
  /// The standups as the store last read or wrote them: what a save may replace.
  private var known: IdentifiedArrayOf<Standup> = []

  /// Records what loading found, and the standups read.
  mutating func didLoad(_ knowledge: Knowledge, standups: IdentifiedArrayOf<Standup> = []) {
    self.knowledge = knowledge
    known = standups
  }

  /// How the stored standups changed behind the store's back, if they did: they are neither
  /// what it last read or wrote nor what the caller merged (`basedOn`).
  func change(
    to stored: IdentifiedArrayOf<Standup>,
    basedOn: IdentifiedArrayOf<Standup>?
  ) -> StoredChange? {
    guard stored != known, stored != basedOn else { return nil }
    return StoredChange(known: known, stored: stored)
  }

  /// Whether a save of `revision` comes too late: that revision, or a later one, was written.
  func isStale(_ revision: Int) -> Bool {
    lastRevision.map { revision <= $0 } ?? false
  }

  /// Refuses a save that would write over data the store has not read (or not yet looked at:
  /// the caller loads first, so that it can merge what is there), or data from a newer release.
  func checkWritable() throws(StorageError) {
    switch knowledge {
    case .newerRelease(let version):
      throw .refused(.newerRelease(version))
    case .notADataFile:
      throw .refused(.notADataFile)
    case .unread, .unknown:
      throw .refused(.unreadDataInTheWay)
    case .nothingToLose, .read:
      return
    }
  }

  /// Records a successful write of `standups`.
  mutating func didWrite(_ standups: IdentifiedArrayOf<Standup>, revision: Int) {
    lastRevision = revision
    knowledge = .read
    known = standups
  }

  /// Records that unread data was kept aside, so that it may be written over.
  mutating func didKeepUnreadData() {
    knowledge = .nothingToLose
    known = []
  }
}
