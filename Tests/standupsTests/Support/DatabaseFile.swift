import Foundation
import GRDB

/// The transcripts of the meetings being recorded, as the app has written them to the database
/// at `url` so far: read with SQLite directly, as another program would, while the app runs.
func meetingsInProgress(at url: URL) throws -> [String] {
  var configuration = Configuration()
  configuration.readonly = true
  let database = try DatabaseQueue(path: url.path, configuration: configuration)
  defer { try? database.close() }
  return try database.read { db in
    try String.fetchAll(db, sql: "SELECT transcript FROM meetingInProgress ORDER BY startedAt")
  }
}
