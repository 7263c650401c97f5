import Foundation
import GRDB
import IdentifiedCollections
import Models
import PropertyBased
import StorageClient
import Testing

/// A database file damaged anywhere, in any way: opening it never crashes or hangs, gives the
/// standups or an error in words, and a damaged database is never written — not by opening it,
/// not by a change, not by a crash's meeting being recovered.
///
/// Every case comes from a fixed seed, so a failure names the case that reproduces it.
@Suite(.timeLimit(.minutes(2)))
struct DatabaseFuzzTests {
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func aDamagedDatabaseIsNeverWritten(seed: UInt64) async throws {
    let folder = try Folder()
    let original = try await folder.database(holding: 60)
    var random = Xoshiro(seed: (seed, seed &* 31, ~seed, 0xDA7A))
    for round in 0..<12 {
      var bytes = [UInt8](original)
      switch round % 3 {
      case 0:
        // NB: A few bytes anywhere: the header, the schema, a table, an index.
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
            in: 0...255, using: &random)
        }
      case 1:
        bytes.removeLast(Int.random(in: 1..<bytes.count, using: &random))
      default:
        let start = Int.random(in: 0..<bytes.count, using: &random)
        let end = min(start + Int.random(in: 1...4096, using: &random), bytes.count)
        for index in start..<end { bytes[index] = 0 }
      }
      let damaged = Data(bytes)
      let path = folder.path("round-\(round).sqlite")
      try damaged.write(to: URL(fileURLWithPath: path))
      let database = StandupsDatabase(path: path)

      let loaded = try? await database.load()
      if loaded == nil {
        await #expect(throws: StorageError.self, "seed \(seed), round \(round)") {
          try await database.apply(.added([.mock]))
        }
        #expect(
          try Data(contentsOf: URL(fileURLWithPath: path)) == damaged,
          "seed \(seed), round \(round)")
      }
    }
  }

  /// A folder for one test's databases.
  final class Folder {
    let url: URL

    init() throws {
      url = FileManager.default.temporaryDirectory
        .appendingPathComponent("standups-dbfuzz-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
      try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
      url.appendingPathComponent(name).path
    }

    /// The bytes of a closed database holding `count` standups.
    func database(holding count: Int) async throws -> Data {
      let path = path("original.sqlite")
      do {
        let database = StandupsDatabase(path: path)
        _ = try await database.load()
        var random = Xoshiro(seed: (1, 2, 3, 4))
        try await database.apply(.added((0..<count).map { _ in Standup.random(using: &random) }))
      }
      return try Data(contentsOf: URL(fileURLWithPath: path))
    }
  }
}
