import Foundation
import StandupsTerminal
import Testing

/// Where the app's files go follows the XDG base directories, and never the working directory.
struct AppFoldersTests {
  @Test func theFoldersFollowXDGThenTheHome() {
    let xdg = AppFolders(
      environment: ["XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state", "HOME": "/home/b"],
      accountHome: nil)
    #expect(xdg.database?.path == "/data/standups/standups.sqlite")
    #expect(xdg.sessionFile?.path == "/state/standups/session.json")

    let home = AppFolders(environment: ["HOME": "/home/b"], accountHome: "/elsewhere")
    #expect(home.database?.path == "/home/b/.local/share/standups/standups.sqlite")
    #expect(home.earlierReleaseDataFile?.path == "/home/b/.local/share/standups/standups.json")
    #expect(home.sessionFile?.path == "/home/b/.local/state/standups/session.json")

    let relative = AppFolders(
      environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/b"], accountHome: nil)
    #expect(relative.state?.path == "/home/b/.local/state/standups", "a relative path is ignored")
  }

  @Test func withoutHOMETheAccountsHomeIsUsedAndWithoutEitherThereAreNoFolders() {
    #expect(
      AppFolders(environment: [:], accountHome: "/home/blob").database?.path
        == "/home/blob/.local/share/standups/standups.sqlite")
    #expect(
      AppFolders(environment: ["HOME": ""], accountHome: "/home/blob").home?.path == "/home/blob")
    let none = AppFolders(environment: ["HOME": "relative/home"], accountHome: nil)
    #expect(none.database == nil && none.sessionFile == nil, "never the working directory")
    #expect(
      AppFolders(environment: ["XDG_DATA_HOME": "/data"], accountHome: nil).database?.path
        == "/data/standups/standups.sqlite")
  }

  @Test func thisAccountHasAHome() {
    #expect(AppFolders.accountHome()?.hasPrefix("/") == true)
  }
}
