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
  /// ``/Models/StandupValue`` as JSON.
  var value: String
  /// ``/Models/StandupValue`` as JSON.
  var replacement: String
  /// Seconds since 2001-01-01 UTC.
  var replacedAt: Double
  /// Who saved the replacement, as ``Replacer/column`` writes it.
  var replacedBy: String
  /// The team member whose change replaced it, when the team's did.
  var member: String?

  /// Who saved a replacement: a process of this machine's (another instance of the app), or the
  /// team (another member's change, applied by a pull). Every instance except the one that
  /// saved it tells a value a process replaced; every instance tells one the team replaced.
  enum Replacer: Equatable {
    /// A process, by its ``ProcessIdentity``.
    case process(String)
    /// Another machine of the team.
    case team

    /// The `replacedBy` column's text. A process identity starts with `linux:` or `pid:`, so it
    /// is never the team's word.
    var column: String {
      switch self {
      case .process(let identity): identity
      case .team: "team"
      }
    }
  }

  init(_ replaced: ReplacedValue, replacedBy replacer: Replacer) throws {
    id = replaced.id.rawValue.uuidString
    standupId = replaced.standupID.rawValue.uuidString
    standupTitle = replaced.standupTitle
    value = String(decoding: try JSONEncoder().encode(replaced.value), as: UTF8.self)
    replacement = String(decoding: try JSONEncoder().encode(replaced.replacement), as: UTF8.self)
    replacedAt = replaced.replacedAt.timeIntervalSinceReferenceDate
    replacedBy = replacer.column
    member = replaced.member
  }

  /// The values replaced by saves of others than `replacer`, oldest first; a row that cannot be
  /// read is left out (and left as it is).
  static func fetchAll(_ db: Database, notReplacedBy replacer: Replacer) throws -> [ReplacedValue] {
    try values(Self.filter(Column("replacedBy") != replacer.column), db)
  }

  /// The values replaced by saves of `replacer`'s, oldest first.
  static func fetchAll(_ db: Database, replacedBy replacer: Replacer) throws -> [ReplacedValue] {
    try values(Self.filter(Column("replacedBy") == replacer.column), db)
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
