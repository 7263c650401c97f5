import Foundation
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// An attendee renamed on one machine and removed on another, in either order in the team's:
/// the machine whose value went is told, by whom, and can put it back.
struct TeamLedgerAttendeeTests {
  let other = UUID(uuidString: "00000000-0000-0000-0000-0000000000B0")!

  @Test func aNameAnotherMembersRemovalTookIsToldWithWho() async throws {
    let (database, machine) = try await sharingTheMock()
    let attendee = try #require(Standup.mock.attendees.first)
    var renamed = attendee
    renamed.name = "Renamed here"
    try await database.apply(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.with(renamed))))
    try await pullBack(database, machine, from: 2)

    // NB: Bob removed the attendee as he saw them, before this machine's rename reached him.
    try await pull(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.without(attendee))),
      into: database, at: 3)

    let told = try await database.valuesReplacedByTheTeam()
    #expect(told.map(\.value) == [.attendeeName(renamed)])
    #expect(told.map(\.replacement) == [.attendeeRemoved(renamed)])
    #expect(
      told.first?.sentence
        == "Your name “Renamed here” in “Design” was removed, with the attendee, by bob's "
        + "change, which the team's server ordered after yours.")
    try await database.apply(.edited(Standup.mock.id, try #require(told.first).restoringEdit))
    #expect(
      try await database.readStandups()[id: Standup.mock.id]?.attendees[id: attendee.id]?.name
        == "Renamed here", "put back")
  }

  @Test func aRemovalAnotherMembersRenameUndidIsToldWithWho() async throws {
    let (database, machine) = try await sharingTheMock()
    let attendee = try #require(Standup.mock.attendees.first)
    try await database.apply(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.without(attendee))))
    try await pullBack(database, machine, from: 2)

    var renamed = attendee
    renamed.name = "Renamed by bob"
    try await pull(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.with(renamed))),
      into: database, at: 3)

    #expect(
      try await database.readStandups()[id: Standup.mock.id]?.attendees[id: attendee.id]?.name
        == "Renamed by bob", "the team's order: the rename after the removal")
    let told = try await database.valuesReplacedByTheTeam()
    #expect(told.map(\.value) == [.attendeeRemoved(renamed)])
    #expect(
      told.first?.sentence
        == "An attendee you removed from “Design” is back: bob's change, which the team's server "
        + "ordered after yours, brought them back as “Renamed by bob”.")
  }

  @Test func aRemovalThatSawTheNameIsNoLostValue() async throws {
    let (database, machine) = try await sharingTheMock()
    let attendee = try #require(Standup.mock.attendees.first)
    var renamed = attendee
    renamed.name = "Renamed here"
    let named = Standup.mock.with(renamed)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: named)))
    try await pullBack(database, machine, from: 2)

    try await pull(
      .edited(Standup.mock.id, StandupEdit(from: named, to: named.without(renamed))),
      into: database, at: 3)
    #expect(try await database.valuesReplacedByTheTeam().isEmpty)
  }

  @Test func anOrderPutBackIsToldAgainWhenAnotherMembersOrderReplacesIt() async throws {
    let (database, machine) = try await sharingTheMock()
    let reversed = Standup.mock.ordered(Standup.mock.attendees.ids.reversed())
    try await database.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: reversed)))
    try await pullBack(database, machine, from: 2)
    let bobsOrder = Standup.mock.ordered(
      Array(Standup.mock.attendees.ids.dropFirst()) + [Standup.mock.attendees.ids[0]])
    try await pull(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: bobsOrder)), into: database, at: 3)
    let told = try #require(try await database.valuesReplacedByTheTeam().first)
    #expect(told.value == .attendeeOrder(Array(reversed.attendees.ids)))

    try await database.apply(.edited(Standup.mock.id, told.restoringEdit))
    try await pullBack(database, machine, from: 4)
    // NB: Bob orders again, from his own order: he has not seen the order put back.
    let bobsNext = bobsOrder.ordered(Array(bobsOrder.attendees.ids.reversed().dropFirst(2)))
    try await pull(
      .edited(Standup.mock.id, StandupEdit(from: bobsOrder, to: bobsNext)), into: database, at: 5)

    let toldAgain = try await database.valuesReplacedByTheTeam().map(\.value)
    #expect(
      toldAgain == [told.value, .attendeeOrder(Array(reversed.attendees.ids))],
      "the order put back was this user's, and bob's replaced it unseen")
  }

  @Test func attendeesAddedOnTwoMachinesEndInTheServersOrder() async throws {
    let (database, _) = try await sharingTheMock()
    let mine = Attendee(id: Attendee.ID(UUID()), name: "Added here")
    let bobs = Attendee(id: Attendee.ID(UUID()), name: "Added by bob")
    let addMine = StandupsChange.edited(
      Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.with(mine)))
    try await database.apply(addMine)
    let addBobs = StandupsChange.edited(
      Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.with(bobs)))
    try await pull(addBobs, into: database, at: 2)

    var order: IdentifiedArrayOf<Standup> = [.mock]
    addBobs.apply(to: &order)
    addMine.apply(to: &order)
    #expect(
      try await database.readStandups()[id: Standup.mock.id]?.attendees.map(\.name)
        == order[id: Standup.mock.id]?.attendees.map(\.name),
      "bob's add is ordered first; this machine's, still waiting, will be ordered after it")
  }

  @Test func anAttendeeAddedHereKeepsTheOrderAnotherMemberGaveMeanwhile() async throws {
    let (database, machine) = try await sharingTheMock()
    let mine = Attendee(id: Attendee.ID(UUID()), name: "Added here")
    try await database.apply(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: Standup.mock.with(mine))))
    let reversed = Standup.mock.ordered(Standup.mock.attendees.ids.reversed())
    try await pull(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: reversed)), into: database, at: 2)
    try await pullBack(database, machine, from: 3)

    #expect(
      try await database.readStandups()[id: Standup.mock.id]?.attendees.ids.elements
        == reversed.attendees.ids + [mine.id],
      "the add goes last, and bob's order stays")
    #expect(try await database.valuesReplacedByTheTeam().isEmpty)
  }

  /// A database in a team, the mock shared and its share back from the server as change 1.
  private func sharingTheMock() async throws -> (StandupsDatabase, UUID) {
    let database = StandupsDatabase(inMemoryHolding: [.mock])
    _ = try await database.load()
    let machine = UUID()
    try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: machine)
    try await database.share([Standup.mock.id])
    try await pullBack(database, machine, from: 1)
    return (database, machine)
  }

  /// This machine's waiting changes, pushed and back in the team's order from `sequence` on.
  private func pullBack(_ database: StandupsDatabase, _ machine: UUID, from sequence: Int64)
    async throws
  {
    let waiting = try await database.waitingTeamChanges(limit: 10)
    try await database.teamChangesPushed(through: waiting.last?.machineSequence ?? 0)
    _ = try await database.applyPulledTeamChanges(
      waiting.enumerated().map { index, change in
        PulledTeamChange(
          sequence: sequence + Int64(index), machine: machine,
          machineSequence: change.machineSequence,
          madeBy: "alice", change: change.change)
      }, through: sequence + Int64(waiting.count) - 1, as: "alice")
  }

  /// Bob's `change`, at `sequence` in the team's order, made having seen change 1 only.
  private func pull(_ change: StandupsChange, into database: StandupsDatabase, at sequence: Int64)
    async throws
  {
    _ = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: sequence, machine: other, machineSequence: sequence, madeBy: "bob",
          basedOn: 1, change: String(decoding: try JSONEncoder().encode(change), as: UTF8.self))
      ], through: sequence, as: "alice")
  }
}

extension Standup {
  fileprivate func with(_ attendee: Attendee) -> Standup {
    var standup = self
    standup.attendees[id: attendee.id] = attendee
    return standup
  }

  /// The standup with its attendees in `order`, first; those `order` leaves out follow.
  fileprivate func ordered(_ order: [Attendee.ID]) -> Standup {
    var standup = self
    let rest = attendees.ids.filter { !order.contains($0) }
    standup.attendees = IdentifiedArray(
      uniqueElements: (order + rest).compactMap { attendees[id: $0] })
    return standup
  }

  fileprivate func without(_ attendee: Attendee) -> Standup {
    var standup = self
    standup.attendees.remove(id: attendee.id)
    return standup
  }
}
