import PostgresTestServer

/// Waits until every machine has pushed everything and applied the team's last change, looking
/// every 200 ms; returns how many changes the team has (its numbers have gaps: those of pushes
/// that started again, which the team passed). `guardTime` is a guard against a hang,
/// not a measure: machines that work converge long before it, even on a machine busy with other
/// work, which slows them as much as it takes their processor away (the benchmarks measure).
///
/// NB: Each look asks the machines whether anything waits before it reads the server, and only
/// then whether each has applied the server's last change. A machine marks a change pushed once
/// the server has committed it, so when nothing waits anywhere, the server holds every change; a
/// server read first could miss a push that committed while the machines were being asked.
func convergence(
  of machines: [Machine], on server: TestServer, guardTime: Duration = .seconds(300)
) async throws -> Int64 {
  let deadline = ContinuousClock.now + guardTime
  while ContinuousClock.now < deadline {
    if try await nothingWaits(on: machines) {
      let team = try await server.administer(
        "SELECT COALESCE(max(sequence), 0) || ' ' || count(*) FROM standups_team.changes"
      ).split(separator: " ").compactMap {
        Int64($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      let (last, count) = (team.first ?? 0, team.last ?? 0)
      var behind = false
      for machine in machines where (try await machine.membership()?.lastSequence ?? 0) < last {
        behind = true
      }
      if !behind { return count }
    }
    try await Task.sleep(for: .milliseconds(200))
  }
  throw TestServerError("the machines did not converge in \(guardTime)")
}

/// Whether no machine has a change the server does not have yet.
private func nothingWaits(on machines: [Machine]) async throws -> Bool {
  for machine in machines {
    guard let membership = try await machine.membership() else { continue }
    if try await machine.database.waitingTeamChangeCount(in: membership.id) > 0 { return false }
  }
  return true
}
