import Dispatch
import Foundation
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The run loop on a real terminal: raw key input, the store's changes and rendering in one
/// place, on the main actor.
///
/// A frame is drawn after each batch of store changes and each key, but never more than 60
/// times a second, and only its changed cells are written (``frameUpdate(from:to:colors:)``).
/// A resize redraws the whole screen at the new size. Ctrl-C is a key here (raw mode), which
/// the app answers; SIGTERM, SIGHUP, SIGQUIT and the end of input mean the app must stop at
/// once, so a meeting in progress is saved as it is. Ctrl-Z (or SIGTSTP) gives the terminal
/// back and stops the app until the shell continues it (`fg`), which takes the terminal again
/// and redraws it whole. Whatever happens, the terminal is given back as it was found.
@MainActor
final class LiveTerminal {
  private let app: TerminalApp
  private let colors: ColorSupport
  private let input: Int32 = STDIN_FILENO
  private let output: Int32 = STDOUT_FILENO
  private let rawMode: RawMode
  private var decoder = KeyDecoder()
  private var previousFrame: Canvas?
  private var lastFrameTime = ContinuousClock.now
  private var isFramePending = false
  private var escapeTimeout: Task<Void, Never>?
  private var pasteTimeout: Task<Void, Never>?
  /// Counts the paste timeouts scheduled, so that one that fired before the bytes that
  /// followed it were handled ends nothing.
  private var pasteTimeoutCount = 0
  private var signalSources: [any DispatchSourceSignal] = []
  private let events: AsyncStream<Event>
  private let send: AsyncStream<Event>.Continuation

  private static let frameInterval = Duration.milliseconds(16)
  private static let escapeDelay = Duration.milliseconds(50)
  /// How long a paste may go without bytes before it ends without its end marker: a terminal
  /// sends a paste at once, so only one that lost the marker waits this long.
  private static let pasteDelay = Duration.seconds(1)
  /// How often the app reads the changes another instance saved, to show them.
  private static let readAgainInterval = Duration.seconds(2)
  /// The longest quitting waits for writes another program holds up: then what is not written
  /// goes to a recovery file, and the user is told.
  private static let saveLimit = Duration.seconds(2)

  private enum Event: Sendable {
    case bytes([UInt8])
    case inputEnded
    case resized
    case terminated
    case escapeTimedOut
    case pasteTimedOut(count: Int)
    case frameDue
    case readChangesElsewhere
    case suspendRequested
    case continued
  }

  init(app: TerminalApp, colors: ColorSupport) throws {
    self.app = app
    self.colors = colors
    rawMode = try RawMode(fileDescriptor: STDIN_FILENO)
    (events, send) = AsyncStream.makeStream(of: Event.self)
  }

  /// Runs until the user quits or the app must stop, then restores the terminal.
  func run() async throws {
    writeScreenSetUp()
    defer { restoreTerminal() }
    listenForSignals()
    readInput()
    app.onChange = { [weak self] in self?.requestFrame() }
    app.start()
    drawFrame()
    let send = self.send
    let readingAgain = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: Self.readAgainInterval)
        send.yield(.readChangesElsewhere)
      }
    }
    defer { readingAgain.cancel() }

    for await event in events {
      switch event {
      case .bytes(let bytes):
        press(decoder.decode(bytes))
        if decoder.isWaitingForMoreOfAnEscapeSequence {
          schedule(.escapeTimedOut, after: Self.escapeDelay, replacing: &escapeTimeout)
        }
        if decoder.isInsidePaste {
          pasteTimeoutCount += 1
          schedule(
            .pasteTimedOut(count: pasteTimeoutCount),
            after: Self.pasteDelay,
            replacing: &pasteTimeout
          )
        }
      case .escapeTimedOut:
        press(decoder.escapeTimedOut())
      case .pasteTimedOut(let count):
        if count == pasteTimeoutCount {
          press(decoder.pasteTimedOut())
        }
      case .resized:
        previousFrame = nil
        drawFrame()
      case .frameDue:
        isFramePending = false
        drawFrame()
      case .readChangesElsewhere:
        app.readChangesElsewhere()
      case .suspendRequested:
        suspend()
      case .continued:
        takeTerminalBack()
      case .inputEnded, .terminated:
        await stopAtOnce()
        return
      }
      if app.isQuitRequested, await app.mayQuit(waitingAtMost: Self.saveLimit) {
        return
      }
    }
  }

  /// The app must stop (a signal, the terminal gone): keeps a meeting in progress, and writes
  /// what is pending, waiting at most ``saveLimit``; what is not written by then goes to a
  /// recovery file.
  private func stopAtOnce() async {
    let start = ContinuousClock.now
    let app = self.app
    await waitAtMost(Self.saveLimit) { await app.saveMeetingInProgress() }
    await app.flush(waitingAtMost: max(Self.saveLimit - (ContinuousClock.now - start), .zero))
  }

  private func press(_ keys: [Key]) {
    let size = windowSize
    for key in keys {
      guard key != .control("z") else {
        suspend()
        continue
      }
      app.press(key, size: size)
      guard !app.isQuitRequested else { return }
    }
  }

  private var windowSize: Size {
    RawMode.windowSize(of: output) ?? Size(width: 80, height: 24)
  }

  /// Draws now, or as soon as 1/60 s has passed since the last frame.
  private func requestFrame() {
    guard !isFramePending else { return }
    let due = lastFrameTime.advanced(by: Self.frameInterval)
    guard ContinuousClock.now < due else {
      drawFrame()
      return
    }
    isFramePending = true
    let send = self.send
    Task {
      try? await Task.sleep(until: due, clock: .continuous)
      send.yield(.frameDue)
    }
  }

  private func drawFrame() {
    let frame = app.render(size: windowSize)
    write(frameUpdate(from: previousFrame, to: frame, colors: colors))
    previousFrame = frame
    lastFrameTime = .now
  }

  /// Sends `event` after `delay`, in place of what `timeout` was going to send.
  private func schedule(
    _ event: Event,
    after delay: Duration,
    replacing timeout: inout Task<Void, Never>?
  ) {
    timeout?.cancel()
    let send = self.send
    timeout = Task {
      try? await Task.sleep(for: delay)
      guard !Task.isCancelled else { return }
      send.yield(event)
    }
  }

  /// Reads the keyboard on a thread of its own: a read blocks until a key comes.
  private func readInput() {
    let input = self.input
    let send = self.send
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count > 0 {
          send.yield(.bytes(Array(buffer[0..<count])))
        } else if count < 0, errno == EINTR {
          continue
        } else {
          send.yield(.inputEnded)
          return
        }
      }
    }
    thread.start()
  }

  /// Stops the app as Ctrl-Z stops a program in a shell: the terminal given back, then the
  /// process stopped until the shell continues it, then the terminal taken back.
  private func suspend() {
    restoreTerminal()
    // NB: SIGSTOP always stops (SIGTSTP is dropped without a shell above), and raised on this
    // thread before anything more is drawn; `PseudoTerminalTests`' Ctrl-Z test guards it.
    raise(SIGSTOP)
    takeTerminalBack()
  }

  /// Puts the terminal in raw mode on the alternate screen again and redraws it whole: the shell
  /// wrote over it while the app was stopped. Also run on SIGCONT, for a stop the app did not
  /// make itself (SIGSTOP from outside); running it twice only draws twice.
  private func takeTerminalBack() {
    rawMode.resume()
    writeScreenSetUp()
    previousFrame = nil
    drawFrame()
  }

  /// Switches to the alternate screen, hides the cursor, asks for marked pastes and clears.
  private func writeScreenSetUp() {
    write(
      TerminalCommand.enterAlternateScreen.sequence + TerminalCommand.hideCursor.sequence
        + TerminalCommand.enableBracketedPaste.sequence + TerminalCommand.clearScreen.sequence)
  }

  private func listenForSignals() {
    let send = self.send
    for (signalNumber, event) in [
      (SIGWINCH, Event.resized), (SIGTERM, .terminated), (SIGHUP, .terminated),
      (SIGINT, .terminated), (SIGQUIT, .terminated), (SIGTSTP, .suspendRequested),
      (SIGCONT, .continued),
    ] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler { send.yield(event) }
      source.resume()
      signalSources.append(source)
    }
  }

  private func restoreTerminal() {
    escapeTimeout?.cancel()
    pasteTimeout?.cancel()
    write(
      TerminalCommand.resetStyle.sequence + TerminalCommand.disableBracketedPaste.sequence
        + TerminalCommand.showCursor.sequence + TerminalCommand.leaveAlternateScreen.sequence)
    rawMode.restore()
  }

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        writeToFile(output, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 {
        guard errno == EINTR else { return }
        continue
      }
      offset += written
    }
  }
}

/// `write(2)`, named apart from ``LiveTerminal``'s own `write`.
private func writeToFile(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
