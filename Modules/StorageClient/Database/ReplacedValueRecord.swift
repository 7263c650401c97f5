import Foundation
import GRDB
import Models

/// A row of `replacedValue`: a value a save replaced although it changed elsewhere after the
/// saving form opened on it.
struct ReplacedValueRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "replacedValue"

  var id: String
  var standupId: String
  var standupTitle: String
  /// ``Models/StandupValue`` as JSON.
  var value: String
  /// ``Models/StandupValue`` as JSON.
  var replacement: String
  /// Seconds since 2001-01-01 UTC.
  var replacedAt: Double
  /// The process that saved the replacement (``ProcessIdentity``).
  var replacedBy: String
  /// The team member whose change replaced it, when the team's did.
  var member: String?

  init(_ replaced: ReplacedValue, replacedBy owner: String) throws {
    id = replaced.id.rawValue.uuidString
    standupId = replaced.standupID.rawValue.uuidString
    standupTitle = replaced.standupTitle
    value = String(decoding: try JSONEncoder().encode(replaced.value), as: UTF8.self)
    replacement = String(decoding: try JSONEncoder().encode(replaced.replacement), as: UTF8.self)
    replacedAt = replaced.replacedAt.timeIntervalSinceReferenceDate
    replacedBy = owner
    member = replaced.member
  }

  /// The values replaced by saves of processes other than `owner`, oldest first; a row that
  /// cannot be read is left out (and left as it is).
  static func fetchAll(_ db: Database, notReplacedBy owner: String) throws -> [ReplacedValue] {
    try values(Self.filter(Column("replacedBy") != owner), db)
  }

  /// The values replaced by saves of `owner`'s, oldest first: ``TeamLedger/teamOwner`` for
  /// those another machine of the team replaced.
  static func fetchAll(_ db: Database, replacedBy owner: String) throws -> [ReplacedValue] {
    try values(Self.filter(Column("replacedBy") == owner), db)
  }

  private static func values(_ request: QueryInterfaceRequest<Self>, _ db: Database) throws
    -> [ReplacedValue]
  {
    try request.order(Column("replacedAt"), Column("id"))
      .fetchAll(db)
      .compactMap { record in
        guard let id = UUID(uuidString: record.id),
          let standupID = UUID(uuidString: record.standupId),
          let value = try? JSONDecoder().decode(StandupValue.self, from: Data(record.value.utf8)),
          let replacement = try? JSONDecoder().decode(
            StandupValue.self, from: Data(record.replacement.utf8))
        else { return nil }
        return ReplacedValue(
          id: ReplacedValue.ID(id), standupID: Standup.ID(standupID),
          standupTitle: record.standupTitle, value: value, replacement: replacement,
          replacedAt: Date(timeIntervalSinceReferenceDate: record.replacedAt),
          member: record.member)
      }
  }
}
