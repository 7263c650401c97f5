import Models
import StorageClient

/// Where the engine stands with the team's server, for the status line and `team status`.
public enum TeamSyncStatus: Equatable, Sendable {
  /// Connecting for the first time.
  case connecting
  /// Connected and listening; `waiting` changes of this machine's are on their way.
  case online(waiting: Int)
  /// The server cannot be reached or refused the connection; the engine tries again.
  case offline(waiting: Int, problem: SyncProblem)
  /// The engine stopped: the role is not a member (or was removed, and the machine has left the
  /// team), or the schema is another release's.
  case stopped(waiting: Int, problem: SyncProblem)

  /// The status in a few words, for the status line: "offline, the server cannot be reached —
  /// 3 changes waiting". Each reason the engine is not syncing has its words, so that what the
  /// line says is true: the engine tells a new status within seconds of a change
  /// (``DeadLinkDetection``).
  public var line: String {
    switch self {
    case .connecting: "team: connecting"
    case .online(0): "team: in sync"
    case .online(let waiting): "team: \(Self.changes(waiting)) on the way"
    case .offline(let waiting, .database(let error)):
      "team: waiting for this machine's database\(Self.why(error)) — \(Self.changes(waiting)) waiting"
    case .offline(let waiting, .busy):
      "team: waiting on the server — \(Self.changes(waiting)) waiting"
    case .offline(let waiting, let problem):
      "offline, \(Self.reason(problem)) — \(Self.changes(waiting)) waiting"
    case .stopped(_, .schema(.newerSchema)): "team: not syncing — update standups"
    case .stopped(_, .schema): "team: not syncing — the server's team schema needs `team setup`"
    case .stopped(_, .removed(_, let team, 0)):
      "team: you are no longer in “\(team)” — its standups stay here as yours"
    case .stopped(_, .removed(_, let team, let unsent)):
      "team: you are no longer in “\(team)” — its standups stay here as yours, with "
        + "\(Self.changes(unsent)) that had not reached it"
    case .stopped: "team: not syncing — not a member"
    }
  }

  /// Why the engine is offline, in a few words.
  private static func reason(_ problem: SyncProblem) -> String {
    switch problem {
    case .noAnswer: "the server does not answer"
    case .noFreeConnection: "the server has no free connection"
    case .refused: "the server refused this machine's login"
    case .untrusted: "the server's certificate is not trusted"
    case .failed: "the server refused a change"
    default: "the server cannot be reached"
    }
  }

  /// Why this machine's database cannot be used, in a few words, when it says.
  private static func why(_ error: StorageError) -> String {
    switch error {
    case .writeFailed(let problem), .unreadable(let problem):
      " (\(problem.reasonDescription))"
    case .refused(.readOnly): " (it is only read)"
    default: ""
    }
  }

  private static func changes(_ count: Int) -> String { Wording.counted(count, "change") }
}
