public import Foundation
public import IssueReporting
import StorageClient
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the running app writes what it has to say to developers — an issue the code reports,
/// anything written to standard error — instead of over the screen it draws: `standups.log` in
/// the state folder, readable only by the user.
///
/// While the app draws full screen, the log is the process's standard error, so a runtime
/// warning or a library's message lands there too; it is the terminal again once the app gives
/// the terminal back. The log stays small: past ``limit`` bytes it becomes `standups.log.1`
/// (replacing the one before) and a new one starts. Tests do not use it: there an issue fails
/// the test, as it should.
///
/// ```swift
/// let log = DiagnosticsLog(in: stateFolder)
/// IssueReporters.current = [log]
/// let restore = log.takeStandardError()
/// // … draw …
/// restore()
/// ```
public final class DiagnosticsLog: IssueReporter {
  /// The log.
  public let file: URL

  /// The size past which the log is moved aside and a new one started.
  public let limit: Int

  private struct State {
    var descriptor: Int32 = -1
    var reported = 0
    /// Why the log could not be opened, the last time it could not.
    var failure: SystemError?
    var onReport: (@Sendable (_ failure: String?) -> Void)?
  }

  private let state = Mutex(State())

  /// A log in `folder` (made, readable only by the user, when needed).
  public init(in folder: URL, limit: Int = 256 * 1024) {
    file = folder.appendingPathComponent("standups.log")
    self.limit = limit
  }

  /// How many issues were reported.
  public var reportedCount: Int {
    state.withLock { $0.reported }
  }

  /// Calls `action` after each issue is reported, so that the app can say where to look: with
  /// `nil` when the issue is in the log, or else why the log could not be written, in words for
  /// people ("a folder on its path is a file (/home/blob/.local/state/standups)").
  public func onReport(_ action: @escaping @Sendable (_ failure: String?) -> Void) {
    state.withLock { $0.onReport = action }
  }

  /// Makes the log the process's standard error, until the function returned is called, which
  /// puts the one before back. When the log cannot be opened, standard error goes nowhere
  /// meanwhile: never to the screen being drawn.
  public func takeStandardError() -> @Sendable () -> Void {
    let descriptor = state.withLock { state in
      state.descriptor = openLog(&state)
      return state.descriptor
    }
    let restore = Self.redirectStandardError(to: descriptor)
    return { [self] in
      state.withLock { state in
        if state.descriptor >= 0 { close(state.descriptor) }
        state.descriptor = -1
      }
      restore()
    }
  }

  /// Sends standard error nowhere until the function returned is called: for an app with no
  /// state folder to keep a log in, which must still not write over its screen.
  public static func discardStandardError() -> @Sendable () -> Void {
    redirectStandardError(to: -1)
  }

  /// Makes `descriptor` (or, when it is -1, nothing) standard error; the function returned puts
  /// the one before back.
  private static func redirectStandardError(to descriptor: Int32) -> @Sendable () -> Void {
    let saved = dup(STDERR_FILENO)
    let target = descriptor >= 0 ? descriptor : open("/dev/null", O_WRONLY | O_CLOEXEC)
    dup2(target, STDERR_FILENO)
    if target != descriptor, target >= 0 { close(target) }
    return {
      if saved >= 0 {
        dup2(saved, STDERR_FILENO)
        close(saved)
      }
    }
  }

  /// Writes a reported issue to the log, with its time and where in the code it was reported.
  public func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let entry =
      "\(Date().formatted(.iso8601)) \(fileID):\(line): \(message() ?? "An issue was reported.")\n"
    let (onReport, failure) = state.withLock {
      state -> ((@Sendable (String?) -> Void)?, String?) in
      if state.descriptor < 0 { state.descriptor = openLog(&state) }
      if state.descriptor >= 0, fileSize(state.descriptor) > limit {
        state.descriptor = startNewLog(replacing: state.descriptor, &state)
      }
      if state.descriptor >= 0 {
        _ = entry.utf8CString.withUnsafeBufferPointer {
          write(state.descriptor, $0.baseAddress, $0.count - 1)
        }
      }
      state.reported += 1
      let folder = file.deletingLastPathComponent().path
      let failure = state.descriptor >= 0 ? nil : state.failure?.problem(at: folder).description
      return (state.onReport, failure)
    }
    onReport?(failure)
  }

  /// Opens the log to append to it, making its folder when needed; -1 when it cannot be, with
  /// why in `state`.
  private func openLog(_ state: inout State) -> Int32 {
    var folder = ""
    for component in file.deletingLastPathComponent().path.split(separator: "/") {
      folder += "/\(component)"
      mkdir(folder, 0o700)
    }
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    state.failure = descriptor >= 0 ? nil : SystemError(code: errno, operation: "open")
    return descriptor
  }

  /// Moves the full log to `standups.log.1` and opens a new one, which becomes standard error if
  /// the old one was.
  private func startNewLog(replacing descriptor: Int32, _ state: inout State) -> Int32 {
    let wasStandardError = isSameFile(descriptor, STDERR_FILENO)
    rename(file.path, file.path + ".1")
    close(descriptor)
    let new = openLog(&state)
    if wasStandardError, new >= 0 {
      dup2(new, STDERR_FILENO)
    }
    return new
  }

  private func fileSize(_ descriptor: Int32) -> Int {
    var status = stat()
    return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
  }

  private func isSameFile(_ first: Int32, _ second: Int32) -> Bool {
    var a = stat()
    var b = stat()
    return fstat(first, &a) == 0 && fstat(second, &b) == 0 && a.st_dev == b.st_dev
      && a.st_ino == b.st_ino
  }
}
