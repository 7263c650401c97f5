import Foundation
import StandupsTerminal

/// Types `count` characters into one field of the app, through the runner of
/// `standups --script`, for `Benchmarks/typing-ratio`, which counts its instructions under
/// callgrind at two lengths: a key must cost the same however long the field already is.
///
///     TypingWork line 20000    the line being typed in a meeting
///     TypingWork title 20000   a standup's title (which stops growing at its limit)
///     TypingWork name 20000    a new attendee's name
///
/// The characters arrive in bursts of 100, as fast typing reaches the live app, and a frame is
/// drawn after each.
@main
enum TypingWork {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.count == 2, let field = arguments.first,
      let opening = openings[field], let count = Int(arguments.last!), count >= 0
    else {
      FileHandle.standardError.write(Data("usage: TypingWork line|title|name COUNT\n".utf8))
      exit(64)
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("typing-work-\(ProcessInfo.processInfo.processIdentifier)")
    let options = LaunchOptions(
      dataFile: folder.appendingPathComponent("standups.sqlite"), isDataFileGiven: true,
      sessionFile: nil)
    let text = opening + typing(count)
    // NB: Not an async `main`: that parks the main thread in `dispatch_main`, and valgrind 3.19
    // crashes as soon as the first worker thread starts beside it. The run loop serves the main
    // queue, so the main actor runs all the same.
    Task { @MainActor in
      var status: Int32 = 0
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        status = try await Launcher.runScript(text, options: options) { _ in }
      } catch {
        FileHandle.standardError.write(Data("TypingWork: \(error)\n".utf8))
        status = 1
      }
      try? FileManager.default.removeItem(at: folder)
      exit(status)
    }
    RunLoop.main.run()
  }

  /// The keys that reach each field from the list of a new database's standups.
  static let openings = [
    "line": "s\nenter\ns\n",
    "title": "s\nenter\ne\n",
    "name": "s\nenter\ne\nctrl-a\n",
  ]

  /// `count` characters typed, a frame drawn after every 100.
  static func typing(_ count: Int) -> String {
    let words = Array("the quick brown fox jumps over the lazy dog ")
    var script = ""
    var typed = 0
    while typed < count {
      let chunk = min(100, count - typed)
      script += "burst \"" + String((0..<chunk).map { words[(typed + $0) % words.count] })
      script += "\"\nscreen\n"
      typed += chunk
    }
    return script
  }
}
