import GRDB

/// Facts the database keeps about itself, in the `metadata` table: each a name and a sentence.
///
/// ```swift
/// try Metadata.earlierReleaseFile.value(in: db)  // "brought in from /home/blob/…/standups.json"
/// ```
enum Metadata: String {
  /// Whether the data file of an earlier release was brought in, and from where; or why not.
  /// Set once, by the first opening that meets the file (or that starts again empty), so that
  /// the file is brought in exactly once whatever made the database.
  case earlierReleaseFile

  /// The fact's sentence, or `nil` when it was never set.
  func value(in db: Database) throws -> String? {
    try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = ?", arguments: [rawValue])
  }

  /// Sets the fact's sentence.
  func set(_ value: String, in db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO metadata (key, value) VALUES (?, ?)",
      arguments: [rawValue, value])
  }
}
