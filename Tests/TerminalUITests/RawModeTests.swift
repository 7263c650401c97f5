import TerminalUI
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct RawModeTests {
  @Test(arguments: ["xterm-256color", "screen", "tmux-256color", "linux", "vt100"])
  func aTerminalThatNamesItselfIsDrawnOnFullScreen(term: String) {
    #expect(RawMode.drawsFullScreen(term: term))
  }

  @Test(arguments: [nil, "", "dumb", "unknown", "dialup", "network"] as [String?])
  func aTerminalWithoutCursorAddressingIsNot(term: String?) {
    #expect(!RawMode.drawsFullScreen(term: term))
  }

  @Test func aPipeIsNotATerminal() throws {
    let pipe = try Pipe()
    defer { pipe.close() }
    #expect(!RawMode.isTerminal(pipe.read))
    #expect(RawMode.windowSize(of: pipe.read) == nil)
    let error = #expect(throws: RawModeError.self) { try RawMode(fileDescriptor: pipe.read) }
    #expect(
      error?.description == "Can't read the terminal settings: Inappropriate ioctl for device.")
  }

  @Test(.enabled(if: PseudoTerminal.isAvailable))
  func rawModeTurnsOffEchoLinesAndSignalsUntilRestored() throws {
    let terminal = try PseudoTerminal()
    defer { terminal.close() }
    #expect(RawMode.isTerminal(terminal.follower))
    let cooked = try terminal.localFlags()
    #expect(cooked & tcflag_t(ECHO | ICANON | ISIG) != 0)

    let rawMode = try RawMode(fileDescriptor: terminal.follower)
    #expect(try terminal.localFlags() & tcflag_t(ECHO | ICANON | ISIG | IEXTEN) == 0)

    rawMode.restore()
    #expect(try terminal.localFlags() == cooked)
    rawMode.restore()
    #expect(try terminal.localFlags() == cooked)
  }

  @Test(.enabled(if: PseudoTerminal.isAvailable))
  func releasingRawModeRestoresTheTerminal() throws {
    let terminal = try PseudoTerminal()
    defer { terminal.close() }
    let cooked = try terminal.localFlags()
    do {
      let rawMode = try RawMode(fileDescriptor: terminal.follower)
      withExtendedLifetime(rawMode) {}
    }
    #expect(try terminal.localFlags() == cooked)
  }

  @Test(.enabled(if: PseudoTerminal.isAvailable))
  func windowSizeIsTheTerminalsSize() throws {
    let terminal = try PseudoTerminal()
    defer { terminal.close() }
    var size = winsize(ws_row: 24, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    #expect(ioctl(terminal.leader, UInt(TIOCSWINSZ), &size) == 0)
    #expect(RawMode.windowSize(of: terminal.follower) == Size(width: 100, height: 24))
  }
}

private struct SystemCallFailed: Error {
  let name: String
  let code = errno
}

private struct Pipe {
  let read: Int32
  let write: Int32

  init() throws {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { throw SystemCallFailed(name: "pipe") }
    (read, write) = (descriptors[0], descriptors[1])
  }

  func close() {
    closeDescriptor(read)
    closeDescriptor(write)
  }
}

/// A pseudo-terminal pair, so raw mode can be tested without the test runner's terminal.
private struct PseudoTerminal {
  let leader: Int32
  let follower: Int32

  static var isAvailable: Bool {
    guard let terminal = try? PseudoTerminal() else { return false }
    terminal.close()
    return true
  }

  init() throws {
    var leader: Int32 = -1
    var follower: Int32 = -1
    guard openpty(&leader, &follower, nil, nil, nil) == 0 else {
      throw SystemCallFailed(name: "openpty")
    }
    (self.leader, self.follower) = (leader, follower)
  }

  func localFlags() throws -> tcflag_t {
    var settings = termios()
    guard tcgetattr(follower, &settings) == 0 else { throw SystemCallFailed(name: "tcgetattr") }
    return settings.c_lflag
  }

  func close() {
    closeDescriptor(follower)
    closeDescriptor(leader)
  }
}

/// `close(2)`, named apart from the `close()` of the types above.
private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}
