import BenchmarkFixtures
import Foundation
import Models
import StorageClient

/// Commits changes to a database of standups as the app does, for `Benchmarks/storage-ratio`,
/// which counts their instructions under callgrind with 10 and with 10,000 standups stored: a
/// change must cost the same however much is stored.
///
///     StorageWork make PATH 10000     a database of 10,000 standups (`standupsToStore`),
///                                     checkpointed, so that its write-ahead log starts empty
///     StorageWork change PATH 100     opens it as the app does, then commits 100 title edits
///                                     of its middle standup, one transaction each
///
/// Counting `change` with 0 edits too takes the opening out of the count.
@main
enum StorageWork {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.count == 3, ["make", "change"].contains(arguments[0]),
      let count = Int(arguments[2]), count >= 0
    else {
      FileHandle.standardError.write(Data("usage: StorageWork make|change PATH COUNT\n".utf8))
      exit(64)
    }
    let database = StandupsDatabase(path: arguments[1])
    // NB: Not an async `main`, for valgrind's sake, as in TypingWork.
    Task {
      do {
        let stored = try await database.load().standups
        if arguments[0] == "make" {
          try await database.apply(.added(standupsToStore(count: count).elements))
          try await database.checkpoint()
        } else if !stored.isEmpty {
          let edited = stored[stored.count / 2].id
          for edit in 0..<count {
            try await database.apply(.edited(edited, StandupEdit(title: "Title \(edit)")))
          }
        }
        exit(0)
      } catch {
        FileHandle.standardError.write(Data("StorageWork: \(error)\n".utf8))
        exit(1)
      }
    }
    RunLoop.main.run()
  }
}
