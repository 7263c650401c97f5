/// Why the team schema could not be set up or changed, in a sentence for the user.
///
/// ```swift
/// do {
///   try await TeamSchema.setUp(on: client, logger: logger)
/// } catch let error as TeamSchemaError {
///   print(error)  // "The team schema on this server is version 3; this release knows 1 …"
/// }
/// ```
public enum TeamSchemaError: Error, Equatable, CustomStringConvertible {
  /// The team's name is empty.
  case emptyTeamName
  /// The database has no team schema.
  case missingSchema
  /// A newer release made the schema: this one would not understand it.
  case newerSchema(found: Int, supported: Int)
  /// No PostgreSQL role has this name.
  case noSuchRole(String)
  /// The role exists but cannot log in (a group role).
  case notALoginRole(String)
  /// The schema is at a version other than this release's; `setUp` upgrades an older one.
  case otherVersion(found: Int, supported: Int)
  /// The role is not the team schema's owner, who alone prunes a team's history.
  case notTheOwner(String)
  /// The team's compacted state holds what this release cannot read: a newer release made it.
  case unreadableCompactedState(reason: String)

  /// The sentence to show the user.
  public var description: String {
    switch self {
    case .emptyTeamName:
      "A team needs a name."
    case .missingSchema:
      "This database has no team schema yet: it must be set up first, by the database's owner."
    case .newerSchema(let found, let supported):
      "The team schema on this server is version \(found), made by a newer release of "
        + "standups; this one knows up to version \(supported) and leaves it unchanged: "
        + "update standups."
    case .noSuchRole(let role):
      "There is no PostgreSQL role \"\(role)\": create it first, with createuser."
    case .notALoginRole(let role):
      "The PostgreSQL role \"\(role)\" cannot log in, so it cannot be a member: give it LOGIN."
    case .otherVersion(let found, let supported):
      "The team schema on this server is version \(found), and this release uses version "
        + "\(supported): the database's owner upgrades it with the newer release."
    case .notTheOwner(let role):
      "The PostgreSQL role \"\(role)\" does not own the team schema: only its owner prunes a "
        + "team's history."
    case .unreadableCompactedState(let reason):
      "The team's compacted state on this server cannot be read by this release (\(reason)): "
        + "update standups."
    }
  }
}
