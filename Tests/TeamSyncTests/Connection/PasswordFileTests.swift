import Foundation
import TeamSync
import Testing

/// The password file's rules, on real files in a temporary folder.
struct PasswordFileTests {
  @Test func pgpasswordComesFirstUnlessEmpty() throws {
    try withPasswordFile("*:*:*:*:from-file\n") { home, environment in
      let server = try ConnectionDescription(url: "postgresql://alice@db/team", environment: [:])
      var withVariable = environment
      withVariable["PGPASSWORD"] = "from-variable"
      #expect(try server.password(environment: withVariable, homeFolder: home) == "from-variable")
      withVariable["PGPASSWORD"] = ""
      #expect(try server.password(environment: withVariable, homeFolder: home) == "from-file")
    }
  }

  @Test func theFirstMatchingLineWinsAndStarsMatchAnything() throws {
    let lines = """
      # host:port:database:user:password
      db:5432:other:alice:wrong-database
      db:6000:*:alice:wrong-port
      db:*:team:bob:wrong-user
      *:5432:*:alice:first-match
      db:5432:team:alice:too-late
      """
    try withPasswordFile(lines) { home, environment in
      let server = try ConnectionDescription(url: "postgresql://alice@db/team", environment: [:])
      #expect(try server.password(environment: environment, homeFolder: home) == "first-match")
      let stranger = try ConnectionDescription(
        url: "postgresql://zoe@elsewhere:7000/x", environment: [:])
      #expect(try stranger.password(environment: environment, homeFolder: home) == nil)
    }
  }

  @Test func aBackslashEscapesAColonABackslashOrAStar() throws {
    let lines = #"""
      \*:5432:team:alice:a literal star is not a wildcard
      db\:1:5432:team:alice:pa\:ss\\word:ignored
      """#
    try withPasswordFile(lines) { home, environment in
      let server = try ConnectionDescription(
        url: "postgresql://alice@db%3A1/team", environment: [:])
      #expect(try server.password(environment: environment, homeFolder: home) == #"pa:ss\word"#)
    }
  }

  @Test func aSocketInTheDefaultFolderIsLocalhostAnyOtherIsItsFolder() throws {
    let lines = """
      localhost:5432:team:alice:default-socket
      /tmp/team:5432:team:alice:own-folder
      """
    try withPasswordFile(lines) { home, environment in
      let defaultSocket = try ConnectionDescription(
        url: "postgresql://alice@/team", environment: [:])
      #expect(
        try defaultSocket.password(environment: environment, homeFolder: home) == "default-socket")
      let ownFolder = try ConnectionDescription(
        url: "postgresql://alice@%2Ftmp%2Fteam/team", environment: [:])
      #expect(try ownFolder.password(environment: environment, homeFolder: home) == "own-folder")
    }
  }

  @Test(arguments: [0o640, 0o604, 0o620, 0o610, 0o644])
  func aFileOthersCanUseIsRefused(permissions: Int) throws {
    try withPasswordFile("*:*:*:*:secret\n", permissions: permissions) { home, environment in
      let server = try ConnectionDescription(url: "postgresql://alice@db/team", environment: [:])
      #expect(throws: ConnectionProblem.passwordFileOpenToOthers("\(home)/.pgpass")) {
        try server.password(environment: environment, homeFolder: home)
      }
    }
  }

  @Test func pgpassfileNamesTheFileAndAMissingFileGivesNoPassword() throws {
    try withPasswordFile("*:*:*:*:secret\n") { home, _ in
      let server = try ConnectionDescription(url: "postgresql://alice@db/team", environment: [:])
      #expect(
        try server.password(environment: ["PGPASSFILE": "\(home)/.pgpass"], homeFolder: "/none")
          == "secret")
      #expect(
        try server.password(environment: ["PGPASSFILE": "\(home)/missing"], homeFolder: home)
          == nil)
    }
  }

  /// Writes `.pgpass` into a new home folder with `permissions`, and runs `body` with the folder
  /// and an environment whose `HOME` is it.
  private func withPasswordFile(
    _ contents: String,
    permissions: Int = 0o600,
    _ body: (String, [String: String]) throws -> Void
  ) throws {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("pgpass-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: home) }
    let path = "\(home)/.pgpass"
    try contents.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    try body(home, ["HOME": home])
  }
}
