import Foundation
import Models
import PostgresNIO
import StorageClient

// A pull: the team's changes after this machine's place, read a window at a time in one
// statement, and the part of each window a machine may apply (the numbers missing in it).

extension TeamServer {
  /// The most bytes of JSON one change may hold: a larger one (a member's hand-written row) is
  /// not read, and every machine skips it. A standup shared with years of meetings is far
  /// smaller.
  static let largestChange = 8 << 20

  /// About the most bytes of changes one pull reads: a window whose changes hold more is cut
  /// short after the change that passes it, and the next pull goes on from there.
  static let pullBudget = 32 << 20

  /// What a pull read: the changes a machine may apply, in order, and how far they go.
  struct Window {
    var changes: [PulledTeamChange]
    /// The number of the last change in `changes`, or the place the pull started from when there
    /// is none: where the machine is once it has applied them.
    var through: Int64
    /// The gap the pull stopped at, when it stopped at one: a missing number whose change may
    /// still come (a push being committed), or, once the team passes it, never will.
    var gap: Int64? = nil
  }

  /// The team's changes after `after`, as far as their numbers run without a gap the team has
  /// not passed, for at most a window of ``windowSize`` numbers and `budget` bytes: read in one
  /// statement, so in one snapshot of the server's, with where the history begins and the
  /// team's horizon.
  ///
  /// The server numbers changes as they are inserted, so numbers may commit out of order: a
  /// missing number may be a push still being committed. The pull stops there; a number at or
  /// below the team's horizon will never come, and the pull goes past it (`pass_gaps`). So a
  /// machine never applies a change while one numbered before it may still come, and never
  /// misses one below its place.
  ///
  /// NB: One statement, as a push is, rather than a transaction of several: no round trip falls
  /// inside it, so a machine that is slow between two statements never holds a snapshot open,
  /// nor has the server end its session for idling in a transaction.
  ///
  /// - Throws: ``HistoryPruned`` when the owner has pruned changes numbered after `after`: the
  ///   window would miss them, and the machine must start again from the compacted state.
  static func pull(
    team: String, after: Int64, budget: Int = pullBudget,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> Window {
    // NB: `start` is the number before the next change, so a run of passed numbers costs one
    // window; bounds are empty unless the next change may be applied (the header row alone).
    let rows = try await connection.allRows(
      """
      SELECT bounds.pruned_through, bounds.horizon, bounds.next, bounds.after,
        w.sequence, w.machine, w.machine_sequence, w.made_by, w.based_on, w.change, w.size,
        w.total
      FROM (
        SELECT h.pruned_through, h.horizon, h.next, \(team)::text AS team, h.start AS after,
          CASE WHEN h.pruned_through <= \(after)
            AND (h.next = \(after) + 1 OR h.next - 1 <= h.horizon)
          THEN h.start + \(windowSize) ELSE h.start END AS through,
          \(budget)::bigint AS budget
        FROM (
          SELECT header.*, GREATEST(\(after), header.next - 1) AS start
          FROM (
            SELECT
              COALESCE((SELECT s.pruned_through FROM standups_team.compacted_states AS s
                WHERE s.team = \(team)), 0) AS pruned_through,
              standups_team.horizon(\(team)) AS horizon,
              (SELECT min(c.sequence) FROM standups_team.changes AS c
                WHERE c.team = \(team) AND c.sequence > \(after)) AS next
          ) AS header
        ) AS h
      ) AS bounds
      LEFT JOIN LATERAL (\(unescaped: windowRows)) AS w ON true
      ORDER BY w.sequence
      """, logger: logger)
    // NB: The outer join gives at least one row; none reads as a history with nothing new.
    var header: (prunedThrough: Int64, horizon: Int64, next: Int64?, start: Int64) =
      (0, 0, nil, after)
    var read: [WindowRow] = []
    for row
      in try rows.decode(
        (
          Int64, Int64, Int64?, Int64?, Int64?, UUID?, Int64?, String?, Int64?, String?, Int32?,
          Int64?
        ).self)
    {
      header = (row.0, row.1, row.2, row.3 ?? after)
      if let sequence = row.4, let machine = row.5, let machineSequence = row.6,
        let madeBy = row.7, let basedOn = row.8, let size = row.10, let total = row.11
      {
        read.append((sequence, machine, machineSequence, madeBy, basedOn, row.9, size, total))
      }
    }
    guard header.prunedThrough <= after else { throw HistoryPruned(through: header.prunedThrough) }
    guard let next = header.next, next == after + 1 || next - 1 <= header.horizon else {
      return Window(changes: [], through: after, gap: header.next.map { _ in after + 1 })
    }
    return Window(read, through: header.start + windowSize)
      .applicable(after: after, from: header.start, horizon: header.horizon)
  }

  /// The most numbers one pull reads: a first pull of 10,000 changes takes ten round trips, and
  /// each statement stays short.
  static let windowSize: Int64 = 1000

  /// The owner pruned the history through `through` under a machine that had not pulled that
  /// far: what it lacks is only in the compacted state now.
  struct HistoryPruned: Error {
    var through: Int64
  }

  /// A change as ``windowRows`` reads it: its number, machine, number on that machine, member,
  /// base, text (`nil` when larger than ``largestChange``), size, and how many changes the
  /// window's bounds hold.
  typealias WindowRow = (
    sequence: Int64, machine: UUID, machineSequence: Int64, madeBy: String, basedOn: Int64,
    change: String?, size: Int32, total: Int64
  )

  /// The rows of a window, for a lateral join on a relation `bounds` with columns `team`,
  /// `after`, `through` and `budget`: the team's changes numbered after `after` and up to
  /// `through`, in order, as many as `budget` bytes allow and at least one. One text for a
  /// window read alone and a pull's; it binds nothing.
  ///
  /// NB: `OFFSET 0` keeps the lateral subquery from being merged away, so each change is
  /// turned into text once, however often its size is looked at.
  static let windowRows = """
    SELECT sequence, machine, machine_sequence, made_by, based_on,
      CASE WHEN size <= \(largestChange) THEN text END AS change, size, total
    FROM (
      SELECT sequence, machine, machine_sequence, made_by, based_on, text, size,
        sum(CASE WHEN size <= \(largestChange) THEN size ELSE 0 END)
          OVER (ORDER BY sequence) AS running,
        count(*) OVER () AS total
      FROM (
        SELECT c.sequence, c.machine, c.machine_sequence, c.made_by::text AS made_by,
          c.based_on, t.text, octet_length(t.text) AS size
        FROM standups_team.changes AS c,
          LATERAL (SELECT c.change::text AS text OFFSET 0) AS t
        WHERE c.team = bounds.team AND c.sequence > bounds.after
          AND c.sequence <= bounds.through
      ) AS sized
    ) AS counted
    WHERE running - (CASE WHEN size <= \(largestChange) THEN size ELSE 0 END) < bounds.budget
    """
}

extension TeamServer.Window {
  /// The window `rows` make, read up to `through`: up to the last row read instead when the
  /// budget left changes out.
  init(_ rows: [TeamServer.WindowRow], through: Int64) {
    self.init(
      changes: rows.map { row in
        PulledTeamChange(
          sequence: row.sequence, machine: row.machine, machineSequence: row.machineSequence,
          madeBy: row.madeBy, basedOn: row.basedOn, change: row.change ?? "",
          tooLarge: row.change == nil ? Int(row.size) : nil)
      },
      through: through)
    if let last = changes.last, let total = rows.first?.total, changes.count < total {
      self.through = last.sequence
    }
  }

  /// The changes of this window, read from `start`, that a machine at `after` may apply: each
  /// the next number, or one whose missing numbers before it are all at or below the team's
  /// `horizon`, which will never come. Stops at the first missing number above it.
  func applicable(after: Int64, from start: Int64, horizon: Int64) -> Self {
    var place = start
    var taken: [PulledTeamChange] = []
    for change in changes {
      guard change.sequence == place + 1 || change.sequence - 1 <= horizon else {
        return Self(changes: taken, through: taken.last?.sequence ?? after, gap: place + 1)
      }
      taken.append(change)
      place = change.sequence
    }
    return Self(changes: taken, through: taken.last?.sequence ?? after)
  }
}
