import Foundation
import IdentifiedCollections
import Models
import PropertyBased
import StandupsTerminal
import StorageClient
import Testing

/// Reading a JSON file of any shape (what `standups import` and the first launch read): never a
/// crash or a hang, always the standups or an error that says where, and a corrupt file brings
/// nothing into the database.
///
/// Every case is derived from a fixed seed, so a failure names the case that reproduces it.
@Suite(.timeLimit(.minutes(2)))
struct DecoderFuzzTests {
  /// The files mutated: what this release writes, and a compact hand-written one.
  static let fixtures: [Data] = [
    try! StandupsFile(standups: [.mock, .engineeringMock, .productMock]).encoded(),
    Data(
      #"""
      {"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111",
      "title": "Design", "theme": "seafoam", "durationSeconds": 900.5,
      "attendees": [{"id": "22222222-2222-2222-2222-222222222221", "name": "Ada"}],
      "meetings": [{"id": "33333333-3333-3333-3333-333333333331",
      "date": "2026-11-20T09:30:00.25Z", "transcript": "Ada shipped the timer."}]}]}
      """#.utf8
    ),
  ]

  @Test func everyTruncationOfASmallFileFailsCleanly() {
    let file = Self.fixtures[1]
    for length in 0..<file.count {
      expectCleanOutcome(of: file.prefix(length), case: "truncated to \(length) bytes")
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5])
  func flippedBitsFailCleanlyOrStillDecode(seed: UInt64) {
    var random = Xoshiro(seed: (seed, ~seed, seed &* 0x9E37_79B9, 0xD1B5_4A32_D192_ED03))
    for round in 0..<200 {
      var bytes = [UInt8](Self.fixtures.randomElement(using: &random)!)
      for _ in 0..<Int.random(in: 1...8, using: &random) {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
      }
      expectCleanOutcome(of: Data(bytes), case: "seed \(seed), flip round \(round)")
    }
  }

  @Test(arguments: [1, 2, 3])
  func splicedFilesFailCleanlyOrStillDecode(seed: UInt64) {
    var random = Xoshiro(seed: (seed, seed ^ 0xABCD, ~seed, 42))
    for round in 0..<200 {
      let first = Self.fixtures.randomElement(using: &random)!
      let second = Self.fixtures.randomElement(using: &random)!
      let cut = Int.random(in: 0...first.count, using: &random)
      let resume = Int.random(in: 0...second.count, using: &random)
      expectCleanOutcome(
        of: first.prefix(cut) + second.suffix(from: second.startIndex + resume),
        case: "seed \(seed), splice round \(round)"
      )
    }
  }

  @Test(arguments: [
    #"{"formatVersion": 1, "formatVersion": 1, "standups": []}"#,
    #"{"formatVersion": 1, "standups": [], "standups": [3]}"#,
    #"{"formatVersion": 99999999999999999999999, "standups": []}"#,
    #"{"formatVersion": -1, "standups": []}"#,
    #"{"formatVersion": 1.5, "standups": []}"#,
    #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": 1e400, "attendees": [], "meetings": []}]}"#,
    #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": -0.0, "attendees": [], "meetings": []}]}"#,
    #"{"formatVersion": 1, "standups": [{"id": "not-a-uuid", "title": "A", "theme": "tan", "durationSeconds": 1, "attendees": [], "meetings": []}]}"#,
    #"{"formatVersion": 1, "standups": [{"id": "11111111-1111-1111-1111-111111111111", "title": "A", "theme": "tan", "durationSeconds": 1, "attendees": [], "meetings": [{"id": "33333333-3333-3333-3333-333333333331", "date": "2026-11-20T09:30:00.Z", "transcript": ""}]}]}"#,
    #"[]"#,
    #"null"#,
    "",
  ])
  func oddButWellFormedInputsFailCleanlyOrDecode(json: String) {
    expectCleanOutcome(of: Data(json.utf8), case: json)
  }

  @Test func deepNestingFailsCleanly() {
    for depth in [100, 1_000, 100_000] {
      let nested =
        #"{"formatVersion": 1, "standups": "# + String(repeating: "[", count: depth)
        + String(repeating: "]", count: depth) + "}"
      expectCleanOutcome(of: Data(nested.utf8), case: "nested \(depth) deep")
    }
  }

  @Test func invalidUTF8FailsCleanly() {
    var bytes = [UInt8](Self.fixtures[1])
    let title = bytes.firstRange(of: Array("Design".utf8))!
    bytes.replaceSubrange(title, with: [0x44, 0xFF, 0xFE, 0xC3, 0x28])
    expectCleanOutcome(of: Data(bytes), case: "invalid UTF-8 in a title")
  }

  @Test func aFiftyMegabyteFileLoads() throws {
    var standup = Standup.engineeringMock
    standup.meetings = [
      Meeting(
        id: Meeting.ID(UUID()),
        date: Date(timeIntervalSince1970: 1_800_000_000),
        transcript: String(repeating: "All work and no play. ", count: 50 * 1024 * 1024 / 22)
      )
    ]
    let data = try StandupsFile(standups: [standup]).encoded()
    #expect(data.count > 50_000_000)
    expectCleanOutcome(of: data, case: "50 MB")
    expectCleanOutcome(of: data.prefix(data.count - 10), case: "50 MB, truncated")
  }

  @Test func aCorruptFileImportsNothing() async throws {
    var random = Xoshiro(seed: (7, 7, 7, 7))
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-fuzz-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = StandupsDatabase(path: directory.appendingPathComponent("standups.sqlite").path)
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    for round in 0..<20 {
      var bytes = [UInt8](Self.fixtures[1])
      bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
        in: 0...255, using: &random)
      let corrupt = Data(bytes)
      guard (try? StandupsFile.decode(corrupt)) == nil else { continue }
      let file = directory.appendingPathComponent("import-\(round).json")
      try corrupt.write(to: file)

      await #expect(throws: DataFileError.self) {
        try await DataFileCommands.importFile(
          file.path, into: directory.appendingPathComponent("standups.sqlite"))
      }
      #expect(try await database.readStandups() == [.mock], "round \(round)")
      #expect(try Data(contentsOf: file) == corrupt, "round \(round)")
    }
  }

  /// Decodes `data` and checks the outcome is clean: standups, or an error that says where.
  private func expectCleanOutcome(
    of data: Data,
    case name: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do throws(StandupsFileError) {
      _ = try StandupsFile.decode(data)
    } catch {
      let message = error.description
      switch error {
      case .malformed(let path, let reason):
        #expect(message.hasPrefix("At "), "\(name): \(message)", sourceLocation: sourceLocation)
        #expect(!reason.isEmpty, "\(name)", sourceLocation: sourceLocation)
        _ = path
      case .notJSON(let reason):
        #expect(!reason.isEmpty, "\(name)", sourceLocation: sourceLocation)
      case .unsupportedVersion:
        break
      }
      for internals in ["NSCocoaErrorDomain", "Dictionary<", "Array<", "Optional("] {
        #expect(!message.contains(internals), "\(name): \(message)", sourceLocation: sourceLocation)
      }
    }
  }
}
