import PostgresTestServer

/// Waits until every machine has pushed everything and applied the team's last change, looking
/// every 200 ms; returns how many changes the team has (its numbers have gaps: those of pushes
/// that started again, which the team passed). `guardTime` is a guard against a hang,
/// not a measure: machines that work converge long before it, even on a machine busy with other
/// work, which slows them as much as it takes their processor away (the benchmarks measure).
func convergence(
  of machines: [Machine], on server: TestServer, guardTime: Duration = .seconds(300)
) async throws -> Int64 {
  let deadline = ContinuousClock.now + guardTime
  while ContinuousClock.now < deadline {
    let team = try await server.administer(
      "SELECT COALESCE(max(sequence), 0) || ' ' || count(*) FROM standups_team.changes"
    ).split(separator: " ").compactMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    let (last, count) = (team.first ?? 0, team.last ?? 0)
    var behind = false
    for machine in machines {
      let membership = try await machine.membership()
      var waiting = 0
      if let membership {
        waiting = try await machine.database.waitingTeamChangeCount(in: membership.id)
      }
      let applied = membership?.lastSequence ?? 0
      if waiting > 0 || applied < last { behind = true }
    }
    if !behind { return count }
    try await Task.sleep(for: .milliseconds(200))
  }
  throw TestServerError("the machines did not converge in \(guardTime)")
}
