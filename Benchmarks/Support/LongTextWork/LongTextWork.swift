import Foundation
import IdentifiedCollections
import Models
import StandupsTerminal

/// Presses keys on every screen of the app over a standup whose title, attendees' names and past
/// meeting's transcript are each `LENGTH` characters long, through the runner of
/// `standups --script`, for `Benchmarks/long-text-ratio`, which counts its instructions under
/// callgrind at two lengths and two numbers of rounds: a key must cost what the screen shows,
/// however long the text on it.
///
///     LongTextWork 20000 8    8 rounds of keys over texts of 20,000 characters
///
/// The standup comes from an earlier release's data file, brought in at launch, so the status
/// line quotes its title too. Each round visits the list, the standup's screen, the edit form, a
/// meeting being recorded and the alert that asks before deleting the standup; then the past
/// meeting is opened, once, and each round scrolls it; a frame is drawn after every key.
@main
enum LongTextWork {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.count == 2, let length = Int(arguments.first ?? ""),
      let rounds = Int(arguments.last ?? ""), length >= 0, rounds >= 0
    else {
      FileHandle.standardError.write(Data("usage: LongTextWork LENGTH ROUNDS\n".utf8))
      exit(64)
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("long-text-work-\(ProcessInfo.processInfo.processIdentifier)")
    let earlierRelease = folder.appendingPathComponent("standups.json")
    let options = LaunchOptions(
      dataFile: folder.appendingPathComponent("standups.sqlite"), isDataFileGiven: true,
      earlierReleaseDataFile: earlierRelease, sessionFile: nil,
      now: Date(timeIntervalSince1970: 1_795_000_000))
    let script =
      String(repeating: round, count: rounds) + openThePastMeeting
      + String(repeating: scrollThePastMeeting, count: rounds)
    // NB: Not an async `main`: that parks the main thread in `dispatch_main`, and valgrind 3.19
    // crashes as soon as the first worker thread starts beside it. The run loop serves the main
    // queue, so the main actor runs all the same.
    Task { @MainActor in
      var status: Int32 = 0
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try StandupsFile(standups: [standup(length)]).encoded().write(to: earlierRelease)
        status = try await Launcher.runScript(script, options: options) { _ in }
      } catch {
        FileHandle.standardError.write(Data("LongTextWork: \(error)\n".utf8))
        status = 1
      }
      try? FileManager.default.removeItem(at: folder)
      exit(status)
    }
    RunLoop.main.run()
  }

  /// One round of keys, from the list and back to it, a frame after each.
  static let round = """
    j
    screen
    enter
    screen
    k
    screen
    e
    screen
    left
    screen
    tab
    screen
    tab
    screen
    tab
    screen
    esc
    screen
    s
    screen
    ctrl-e
    screen
    d
    screen
    esc
    screen
    d
    screen
    esc
    screen

    """

  /// From the list to the standup's past meeting, whose transcript its screen wraps once.
  static let openThePastMeeting = """
    enter
    enter
    screen

    """

  /// One round of scrolling through the past meeting, a frame after each key.
  static let scrollThePastMeeting = """
    j
    screen
    pagedown
    screen
    end
    screen
    k
    screen
    home
    screen

    """

  /// A standup whose title, three attendees' names and past meeting's transcript are each
  /// `length` characters of words.
  static func standup(_ length: Int) -> Standup {
    let words = Array("the quick brown fox jumps over the lazy dog ")
    let text = String((0..<length).map { words[$0 % words.count] })
    return Standup(
      id: Standup.ID(uuid(1)),
      attendees: IdentifiedArray(
        uniqueElements: (2...4).map { number in
          Attendee(id: Attendee.ID(uuid(number)), name: "\(number) " + text)
        }),
      meetings: [
        Meeting(
          id: Meeting.ID(uuid(5)), date: Date(timeIntervalSince1970: 1_794_000_000),
          transcript: text)
      ],
      title: text
    )
  }

  /// A fixed UUID, so that every run does the same work.
  static func uuid(_ number: UInt8) -> UUID {
    UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, number))
  }
}
