import Foundation
import IdentifiedCollections
import Models
import StandupsTerminal
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Recovery files in the temporary folder, which every user, home and database on the machine
/// shares: a launch finds only what was left for its own database by its own user.
struct RecoveryFileTests {
  @Test func theTemporaryPlaceIsNamedForTheUserAndTheDatabaseTheSameAtEveryLaunch() {
    let temporary = URL(fileURLWithPath: "/tmp", isDirectory: true)
    let blobs = URL(fileURLWithPath: "/home/blob/standups.sqlite")
    let place = RecoveryFile.temporaryPlace(for: blobs, in: temporary)
    // NB: The digest is written out: one computed afresh by each launch (as `Hasher`'s is)
    // would pass a comparison within one process and still name another folder next time.
    #expect(place.path == "/tmp/standups-\(getuid())-d7f42854faacb0da")
    #expect(
      RecoveryFile.temporaryPlace(
        for: URL(fileURLWithPath: "/home/blob/./standups.sqlite"), in: temporary) == place)
    #expect(
      RecoveryFile.temporaryPlace(
        for: URL(fileURLWithPath: "/home/blob-jr/standups.sqlite"), in: temporary) != place)
  }

  @Test func aFileLeftForAnotherDatabaseInTheTemporaryFolderIsNotAnnounced() throws {
    let folder = try Folder()
    let environment = ["TMPDIR": folder.url.appendingPathComponent("tmp").path]
    let blobs = RecoveryFile.places(
      state: nil, database: folder.url.appendingPathComponent("blob/standups.sqlite"),
      environment: environment)
    let blobJuniors = RecoveryFile.places(
      state: nil, database: folder.url.appendingPathComponent("blob-jr/standups.sqlite"),
      environment: environment)
    // NB: Written to the temporary place alone, as when the places before it refuse a file.
    let written = try RecoveryFile.write(
      [.mock], in: [blobs[1]], at: Date(timeIntervalSince1970: 0))

    #expect(written.deletingLastPathComponent() == blobs[1])
    #expect(RecoveryFile.existing(in: blobs) == [written])
    #expect(RecoveryFile.existing(in: blobJuniors).isEmpty)
  }

  @Test func aTemporaryPlaceOthersCanEnterIsRefused() throws {
    let folder = try Folder()
    let place = RecoveryFile.temporaryPlace(
      for: folder.url.appendingPathComponent("standups.sqlite"), in: folder.url)
    // NB: As another user would leave it, made before this user's first recovery file.
    try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: place.path)

    #expect {
      try RecoveryFile.write([.mock], in: [place], at: Date(timeIntervalSince1970: 0))
    } throws: { error in
      (error as? RecoveryFailure)?.problems.map(\.path) == [place.path]
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: place.path).isEmpty)
  }
}

/// A folder of the test's own, removed when the test ends.
private struct Folder: ~Copyable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("recovery-file-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
