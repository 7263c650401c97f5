import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import StandupsList
import StorageClient
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The app over the live file storage, with the file system failing each step of a save in
/// turn, and with every kind of file it cannot read.
@MainActor
struct FileFaultTests {
  @Test(arguments: FaultyFileSystem.Fault.allCases)
  func aSaveFailingAtAnyStepKeepsThePreviousFileAndTheNextChangeWrites(
    fault: FaultyFileSystem.Fault
  ) async throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("standups.json")
    let faulty = FaultyFileSystem(fault)
    let app = AppHarness(storage: .file(at: file, fileSystem: faulty.fileSystem))
    await app.load()
    await app.addSampleData()
    await app.letTheQuietSecondPass()
    let previous = try Data(contentsOf: file)
    #expect(try StandupsFile.decode(previous).standups.count == 3)

    faulty.arm()
    await app.delete(Standup.mock.id)
    let error = try #require(app.store.state.persistence.lastWriteError, "\(fault)")
    #expect(app.store.state.alert == .saveFailed(error))
    #expect(!error.description.contains("errno"))
    #expect(try Data(contentsOf: file) == previous, "\(fault)")
    #expect(try directory.names() == ["standups.json"], "\(fault) left something behind")

    faulty.disarm()
    await app.dismissAlert()
    await app.delete(Standup.engineeringMock.id)
    await app.letTheQuietSecondPass()
    #expect(app.store.state.persistence.lastWriteError == nil)
    #expect(try StandupsFile.decode(Data(contentsOf: file)).standups == [.productMock])
    #expect(try directory.names() == ["standups.json"])
  }

  @Test func aFailedBackupOfACorruptFileWritesNothingAndCanBeTriedAgain() async throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("standups.json")
    let corrupt = Data(#"{"formatVersion": 1, "standups": [{"id": 1}]}"#.utf8)
    try corrupt.write(to: file)
    let faulty = FaultyFileSystem(.createTemporaryFile)
    let app = AppHarness(storage: .file(at: file, fileSystem: faulty.fileSystem))

    await app.load()
    #expect(app.store.state.alert?.title == TextState("Data failed to load"))
    faulty.arm()
    await app.keepUnreadableDataAside(then: .sampleData)
    #expect(app.store.state.alert?.title == TextState("Nothing was saved"))
    #expect(try Data(contentsOf: file) == corrupt)
    #expect(try directory.names() == ["standups.json"])

    faulty.disarm()
    await app.dismissAlert()
    await app.addSampleData()
    #expect(app.store.state.alert?.title == TextState("Data failed to load"))
    await app.keepUnreadableDataAside(then: .sampleData)
    await app.letTheQuietSecondPass()
    #expect(try StandupsFile.decode(Data(contentsOf: file)).standups.count == 3)
    let backups = try directory.names().filter { $0.hasPrefix("standups.backup-") }
    #expect(backups.count == 1)
    #expect(try Data(contentsOf: directory.url.appendingPathComponent(backups[0])) == corrupt)
  }

  /// What stands where the data file should be, and how loading it must go.
  enum Obstacle: String, CaseIterable, Sendable {
    case directory
    case danglingSymbolicLink
    case unreadableFile
    case wrongShape
    case futureFormatVersion
  }

  @Test(arguments: Obstacle.allCases)
  func dataTheAppCannotReadIsNeverWrittenOver(obstacle: Obstacle) async throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("standups.json")
    var fileSystem = FileSystem.live
    switch obstacle {
    case .directory:
      try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
    case .danglingSymbolicLink:
      try FileManager.default.createSymbolicLink(
        atPath: file.path,
        withDestinationPath: directory.url.appendingPathComponent("gone.json").path
      )
    case .unreadableFile:
      try StandupsFile(standups: [.mock]).encoded().write(to: file)
      // NB: Permissions do not bind root, so the file system is made to refuse the read.
      fileSystem.read = { _ in .failure(SystemError(code: EACCES, operation: "open")) }
    case .wrongShape:
      try Data(#"{"formatVersion": 1, "standups": {"Design": 5}}"#.utf8).write(to: file)
    case .futureFormatVersion:
      try Data(#"{"formatVersion": 2, "standups": [], "newInVersion2": true}"#.utf8).write(to: file)
    }
    let before = try snapshot(file)
    let app = AppHarness(storage: .file(at: file, fileSystem: fileSystem))

    await app.load()
    switch obstacle {
    case .futureFormatVersion:
      #expect(app.store.state.persistence.status == .readOnly(formatVersion: 2))
    case .directory, .danglingSymbolicLink, .unreadableFile, .wrongShape:
      guard case .notSaving(let error) = app.store.state.persistence.status else {
        Issue.record("\(obstacle): loaded as \(app.store.state.persistence.status)")
        return
      }
      #expect(app.store.state.alert == .loadFailed(error))
      let words = error.description
      #expect(!words.contains("NSCocoaErrorDomain") && !words.contains("Dictionary<"))
      switch obstacle {
      case .directory: #expect(words.contains("it is a folder"))
      case .danglingSymbolicLink: #expect(words.contains("symbolic link to a file that does not"))
      case .unreadableFile: #expect(words.contains("permission denied"))
      case .wrongShape: #expect(words.contains("At standups: Expected a list"))
      case .futureFormatVersion: break
      }
      await app.dismissAlert()
    }
    await app.addSampleData()
    await app.flush()
    await app.letTheQuietSecondPass()

    #expect(try snapshot(file) == before, "\(obstacle) was written over")
    #expect(try directory.names().allSatisfy { !$0.hasPrefix(".standups.json.") })
  }

  /// What is at `file`: its bytes, or a description of what it is.
  private func snapshot(_ file: URL) throws -> String {
    let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
    switch attributes?[.type] as? FileAttributeType {
    case .typeDirectory?: return "a directory"
    case .typeSymbolicLink?:
      return "a link to \(try FileManager.default.destinationOfSymbolicLink(atPath: file.path))"
    default: return try Data(contentsOf: file).base64EncodedString()
    }
  }
}

/// The whole app over a storage client, driven loosely: the file, not each state, is what these
/// tests check.
@MainActor
final class AppHarness {
  let clock = TestClock()
  let store: TestStore<AppFeature.State, AppFeature.Action>

  init(storage: StorageClient) {
    store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.storageClient = storage
      $0.uuid = .incrementing
    }
    store.exhaustivity = .off
  }

  func load() async {
    await store.send(.onTask)
    await store.receive(\.persistence.standupsLoaded)
  }

  func addSampleData() async {
    await store.send(.list(.loadSampleDataButtonTapped))
    await store.receive(\.list.delegate.loadSampleData)
    await store.skipReceivedActions(strict: false)
  }

  func delete(_ id: Standup.ID) async {
    await store.send(.list(.deleteButtonTapped(id: id)))
    await store.send(.list(.alert(.presented(.confirmDeletion(id: id)))))
    await store.receive(\.list.delegate.deleteStandup)
    await letTheQuietSecondPass()
  }

  func keepUnreadableDataAside(then freshStart: AppFeature.Persistence.FreshStart) async {
    await store.send(.alert(.presented(.keepUnreadableDataAside(then: freshStart))))
    await store.receive(\.persistence.unreadableDataKeptAside)
    await store.skipReceivedActions(strict: false)
  }

  func dismissAlert() async {
    await store.send(.alert(.dismiss))
  }

  func flush() async {
    await store.send(.persistence(.flushPendingSave)).finish()
    await store.skipReceivedActions(strict: false)
  }

  func letTheQuietSecondPass() async {
    await clock.advance(by: .seconds(1))
    await store.skipReceivedActions(strict: false)
    await clock.advance(by: .seconds(1))
    await store.skipReceivedActions(strict: false)
  }
}

/// A temporary directory, removed when released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-faults-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The names in the directory, sorted.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
