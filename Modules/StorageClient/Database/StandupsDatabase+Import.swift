import Foundation
import GRDB
public import IdentifiedCollections
public import Models

// Bringing standups in from a file: `standups import`, and an earlier release's data file at
// the first launch. An import adds and changes, never removes, and goes to the team as edits.

extension StandupsDatabase {
  /// Brings `standups` in, in one transaction, losing nothing: a standup the database lacks is
  /// added; one it has takes the file's title, length and theme, and the file's attendees and
  /// meetings are added to its own (an import never removes anything). A standup the database
  /// holds in a form this release cannot read is replaced by the file's copy, and the report
  /// says so.
  ///
  /// - Parameters:
  ///   - standups: The standups the file holds.
  ///   - path: The file the standups came from, for the report.
  public func importStandups(
    _ standups: IdentifiedArrayOf<Standup>,
    from path: String
  ) throws(StorageError) -> ImportReport {
    let queue = try writableQueue()
    if !isOpeningFinished { _ = try finishOpening() }
    return try commit(queue) { db in try Self.importStandups(standups, from: path, db) }
  }

  private static func importStandups(
    _ standups: IdentifiedArrayOf<Standup>,
    from path: String,
    _ db: Database
  ) throws -> ImportReport {
    var report = ImportReport(path: path)
    var position = try StandupRows.nextPosition(db)
    for standup in standups {
      try checkRules(standup)
      let stored: Standup?
      do {
        stored = try StandupRows.fetchOne(db, id: standup.id)
      } catch let unreadable as UnreadableStandup {
        let at = try StandupRows.position(of: standup.id, db)
        try StandupRows.delete(standup.id, db)
        try StandupRows.insert(standup, at: at ?? position, db)
        report.replacedUnreadable.append(unreadable.title)
        report.standupIDs.append(standup.id)
        continue
      }
      guard let stored else {
        try StandupRows.insert(standup, at: position, db)
        position += 1
        report.added.append(standup.displayTitle)
        report.standupIDs.append(standup.id)
        continue
      }
      let imported = StandupEdit(from: stored, to: standup).withoutRemovals.applied(to: stored)
      let edit = StandupEdit(from: stored, to: imported)
      guard !edit.isEmpty else {
        report.unchanged += 1
        continue
      }
      try StandupRows.write(from: stored, to: imported, db)
      try TeamLedger.addToOutbox(.edited(standup.id, edit), db)
      report.changed.append(
        ImportReport.ChangedStandup(title: imported.displayTitle, parts: edit.changedParts))
      report.standupIDs.append(standup.id)
    }
    return report
  }

  /// Imports the data file of an earlier release; `nil` when there is no such file, and a
  /// failure that says why when it cannot be read.
  func importOnFirstLaunch(from file: String, _ db: Database) throws -> FirstLaunchImport? {
    let data: Data
    switch FileSystem.live.read(file) {
    case .success(let bytes): data = bytes
    case .failure(let error) where error.code == ENOENT: return nil
    case .failure(let error):
      // NB: The reason alone: the notice that tells it names the file, once.
      return .failed(path: file, reason: error.problem(at: "").description)
    }
    let standups: IdentifiedArrayOf<Standup>
    do throws(StandupsFileError) {
      standups = try StandupsFile.decode(data).standups
    } catch {
      return .failed(path: file, reason: error.description)
    }
    do {
      return .imported(try Self.importStandups(standups, from: file, db))
    } catch let error as StorageError where error.concernsOnlyItsChange {
      return .failed(path: file, reason: error.description)
    }
  }
}

extension FirstLaunchImport {
  /// What the database keeps of it (``Metadata/earlierReleaseFile``).
  var record: String {
    switch self {
    case .imported(let report): "brought in from \(report.path)"
    case .failed(let path, let reason): "not brought in from \(path): \(reason)"
    }
  }
}
