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

  /// Records that an edit `replacer` saved replaced `replacement.replaced` in `standup`: a value
  /// the user is told of until they put it back or let it go. An edit made here and a change
  /// another member made both record theirs with this.
  static func insert(
    _ replacement: StandupEdit.Replacement, in standup: Standup, by replacer: Replacer,
    member: String? = nil, id: UUID, at date: Date, _ db: Database
  ) throws {
    func json(_ value: StandupValue) throws -> String {
      String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
    try Self(
      id: id.uuidString, standupId: standup.id.rawValue.uuidString,
      standupTitle: standup.displayTitle, value: json(replacement.replaced),
      replacement: json(replacement.replacement), replacedAt: date.timeIntervalSinceReferenceDate,
      replacedBy: replacer.column, member: member
    ).insert(db)
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
