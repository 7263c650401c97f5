import Foundation
import IdentifiedCollections
import Models
import StorageClient

/// One member's edit on their own machine, for the team tests that run every machine as
/// processes of its own (`ConvergenceTests`): it opens the machine's database, saves one edit to
/// a standup as the app saves it, and exits. Syncing and reading back are the `standups`
/// executable's own `sync` and `export`.
///
///     TeamMachine DATABASE STANDUP KIND VALUE STEP
///
/// KIND is `title`, `duration`, `theme`, `attendee` (one added), `rename` (the first attendee)
/// or `meeting` (one recorded, its transcript "Meeting STEP"); VALUE, from 0 to 3, picks the
/// new value; STEP names what is new. A standup the database does not hold is left alone.
@main
enum TeamMachine {
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.count == 5, let standup = UUID(uuidString: arguments[1]),
      let value = Int(arguments[3]), (0...3).contains(value), let step = Int(arguments[4]),
      Self.kinds.contains(arguments[2])
    else {
      FileHandle.standardError.write(
        Data("usage: TeamMachine DATABASE STANDUP \(kinds.joined(separator: "|")) 0-3 STEP\n".utf8))
      exit(64)
    }
    do {
      let database = StandupsDatabase(path: arguments[0])
      let stored = try await database.load().standups
      guard let change = edit(stored[id: Standup.ID(standup)], arguments[2], value, step)
      else { exit(0) }
      try await database.apply(change)
    } catch {
      FileHandle.standardError.write(Data("TeamMachine: \(error)\n".utf8))
      exit(74)
    }
  }

  static let kinds = ["title", "duration", "theme", "attendee", "rename", "meeting"]

  /// The change `kind` makes to `standup`, or nil when there is none to make.
  static func edit(_ standup: Standup?, _ kind: String, _ value: Int, _ step: Int)
    -> StandupsChange?
  {
    guard let standup else { return nil }
    var edited = standup
    switch kind {
    case "title": edited.title = ["Design", "Review", "Sync", "Retro"][value]
    case "duration": edited.duration = .seconds(60 * (value + 1))
    case "theme": edited.theme = [.bubblegum, .buttercup, .lavender, .orange][value]
    case "attendee":
      edited.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "New \(step)"))
    case "rename":
      guard let first = edited.attendees.first else { return nil }
      edited.attendees[id: first.id]?.name = ["Ann", "Ben", "Cy", "Di"][value]
    default:
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: Double(step) * 60),
        transcript: "Meeting \(step)")
      return .meetingRecorded(meeting, standup: standup)
    }
    return .edited(standup.id, StandupEdit(from: standup, to: edited))
  }
}
