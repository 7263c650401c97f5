import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// What the ledger's tests share: a database in memory in a team, and the server's side played
/// by hand-made `PulledTeamChange`s.
protocol LedgerTesting {}

extension LedgerTesting {
  /// Another member's machine.
  var other: UUID { UUID(uuidString: "00000000-0000-0000-0000-0000000000B0")! }

  func joined(holding standups: IdentifiedArrayOf<Standup>) async throws
    -> (StandupsDatabase, UUID)
  {
    let database = StandupsDatabase(inMemoryHolding: standups)
    _ = try await database.load()
    let machine = UUID()
    try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: machine)
    return (database, machine)
  }

  /// This machine's share, back from the server as change 1 of the team's order.
  func shareBack(_ shared: WaitingTeamChange, from machine: UUID) -> PulledTeamChange {
    PulledTeamChange(
      sequence: 1, machine: machine, machineSequence: shared.machineSequence, madeBy: "alice",
      change: shared.change)
  }

  func encode(_ change: StandupsChange) throws -> String {
    String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
  }

  func decode(_ text: String) throws -> StandupsChange {
    try JSONDecoder().decode(StandupsChange.self, from: Data(text.utf8))
  }
}
