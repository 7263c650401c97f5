public import Foundation
public import PostgresNIO
import Synchronization

/// The one connection this machine keeps to a team server, shared by the engines of every team
/// it has joined there.
///
/// Why one: a person is often in several teams on one server, and a server's connections are
/// few (a role may be limited to one or two, and every connection is a server process). Each
/// team's ``TeamSyncEngine`` listens on its own channel and makes its own rounds, on this one
/// connection.
///
/// Invariant: the engines take turns (`Open.inTurn`), so that the statements of one
/// engine's round never interleave with another's: a push sets the session's isolation for its
/// statement, and nothing else must run under it. Listening is not a turn: postgres-nio sends
/// `LISTEN` and `UNLISTEN` when asked, perhaps between the statements of another engine's turn,
/// and they read and write nothing a round does. Guarded by
/// `ServerLinkTests`.
///
/// When the connection fails, every engine on it fails too, and the next to need it opens
/// another. A team whose channel is flooded ends the connection for all (the quickest way to
/// stop the flood); the others connect again at once, without a word, and the flooded team
/// looks instead of listening (TeamSyncEngine+Floods.swift).
///
/// ```swift
/// let link = ServerLink(server: "postgresql://alice@db.example.com/standups")
/// let platform = TeamSyncEngine(database: database, membership: platform, link: link)
/// let design = TeamSyncEngine(database: database, membership: design, link: link)
/// ```
public actor ServerLink {
  /// The server's URL, as `standups team join` recorded it for each of the teams.
  public nonisolated let server: String
  let environment: [String: String]
  let logger: Logger
  /// How long the server may leave a statement without a word before the connection is taken
  /// for dead (`DeadLinkDetection.AnswerWatch`).
  let answerLimit: Duration?

  private var current: Open?
  private var users = 0
  private var opening: Task<Swift.Result<Open, SyncProblem>, Never>?
  private var closing: Task<Void, Never>?

  /// A link to `server`, which connects when an engine first needs it.
  ///
  /// - Parameters:
  ///   - server: The server's URL, as the teams' memberships hold it.
  ///   - environment: Where `PGPASSWORD`, `PGPASSFILE`, `HOME` and the other `PG…` variables
  ///     come from; the process's by default.
  ///   - logger: Where postgres-nio logs.
  ///   - answerLimit: How long the server may leave a statement without a word before the
  ///     connection is taken for dead; `nil` waits for ever, as a test of a connection that
  ///     hangs does.
  public init(
    server: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    logger: Logger = .teamSync,
    answerLimit: Duration? = DeadLinkDetection.answerLimit
  ) {
    self.server = server
    self.environment = environment
    self.logger = logger
    self.answerLimit = answerLimit
  }

  /// One link for each server among `servers`, keyed by its URL.
  ///
  /// ```swift
  /// let links = ServerLink.one(forEach: memberships.map(\.server))
  /// ```
  public static func one(
    forEach servers: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String: ServerLink] {
    Dictionary(
      servers.map { ($0, ServerLink(server: $0, environment: environment)) },
      uniquingKeysWith: { first, _ in first })
  }

  /// The open connection, its server's description, and the turns its engines take.
  final class Open: Sendable {
    let connection: PostgresConnection
    let description: ConnectionDescription
    /// What ends each engine's work on the connection when it closes.
    let closeWatch: CloseWatch
    private let verdict: DeadLinkDetection.Verdict
    private let turns = Turns()
    /// Whether the connection was ended for a flood (TeamSyncEngine+Floods.swift).
    let isEndedForAFlood = Atomic(false)

    init(
      connection: PostgresConnection, description: ConnectionDescription,
      verdict: DeadLinkDetection.Verdict
    ) {
      self.connection = connection
      self.description = description
      self.closeWatch = CloseWatch(connection)
      self.verdict = verdict
    }

    /// Runs `body` when no other engine's work runs on the connection.
    func inTurn<Result: Sendable>(
      _ body: @Sendable () async throws -> Result
    ) async throws -> Result {
      try await turns.take()
      defer { turns.give() }
      // NB: An engine stopped just as its turn came has nothing more to do here.
      try Task.checkCancellation()
      return try await body()
    }

    var whyClosed: any Error { verdict.whyClosed }

    /// The role the connection is made as: the member's.
    var role: String { description.user }
  }

  /// Runs `body` on the open connection (opening it if none is), while other engines may use it
  /// too; closes the connection when the last of them is done. Every failure comes out as a
  /// ``SyncProblem``.
  ///
  /// When the connection closes, `body` ends at once with why (`CloseWatch`), as a
  /// connection of its own would.
  func withConnection<Result: Sendable>(
    _ body: @escaping @Sendable (Open) async throws -> Result
  ) async throws(SyncProblem) -> Result {
    let open = try await opened().get()
    users += 1
    do {
      let result = try await open.closeWatch.untilClosed(
        whyClosed: { open.whyClosed }, { try await body(open) })
      await release(open)
      return result
    } catch {
      await release(open)
      throw SyncProblem.from(error, for: open.description)
    }
  }

  /// The open connection, or a new one: one connecting at a time, and none while the last is
  /// still closing (a role limited to one connection has room for one only).
  private func opened() async -> Swift.Result<Open, SyncProblem> {
    if let current, !current.connection.isClosed { return .success(current) }
    if let opening {
      let opened = await opening.value
      // NB: Its task made it current; one that closed meanwhile is of no use: open another.
      if case .success(let open) = opened, open.connection.isClosed { return await self.opened() }
      return opened
    }
    await closing?.value
    let task = Task { () -> Swift.Result<Open, SyncProblem> in
      let opened = await Open.connect(
        to: server, environment: environment, logger: logger, answerLimit: answerLimit)
      // NB: On the link, before any waiter resumes: a waiter finds it current.
      opening = nil
      if case .success(let open) = opened {
        current = open
        users = 0
      }
      return opened
    }
    opening = task
    return await task.value
  }

  private func release(_ open: Open) async {
    guard open === current else { return }
    users -= 1
    guard users == 0 || open.connection.isClosed else { return }
    current = nil
    users = 0
    let closing = Task { _ = try? await open.connection.close() }
    self.closing = closing
    await closing.value
  }
}
