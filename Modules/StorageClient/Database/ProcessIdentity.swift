import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which process owns a meeting in progress, written beside it, so that the next launch can
/// tell a meeting whose app is gone (it crashed, or the machine lost power) from one another
/// instance is still recording.
///
/// A process ID alone is not enough: after a reboot, or once IDs wrap around, a new process can
/// have the old one's ID. On Linux the identity is the boot's ID, the process ID and the time the
/// process started; elsewhere it is the process ID, and a live process with it counts as the
/// owner.
///
/// ```swift
/// let owner = ProcessIdentity.current  // written with the meeting
/// ProcessIdentity.isRunning(owner)  // true while this process runs
/// ```
enum ProcessIdentity {
  /// This process's identity.
  static let current: String = identity(of: getpid()) ?? "pid:\(getpid())"

  /// Whether the process `identity` names is still running.
  static func isRunning(_ identity: String) -> Bool {
    let parts = identity.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 4, parts[0] == "linux", let pid = pid_t(parts[2]) {
      return self.identity(of: pid) == identity
    }
    if parts.count == 2, parts[0] == "pid", let pid = pid_t(parts[1]) {
      return kill(pid, 0) == 0 || errno == EPERM
    }
    return false
  }

  /// `linux:<boot ID>:<pid>:<start time>` for a running process on Linux, `nil` elsewhere or
  /// when no such process runs.
  static func identity(of pid: pid_t) -> String? {
    guard
      let boot = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8),
      let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let afterName = stat.range(of: ")", options: .backwards)
    else { return nil }
    // NB: Fields count from the state after the name (which may hold spaces): the start time is the
    // 20th. A zombie (Z) or dead (X) process runs no more (`aProcessThatExitedButIsNotReaped…`).
    let fields = stat[afterName.upperBound...].split(separator: " ")
    guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
    let bootID = boot.trimmingCharacters(in: .whitespacesAndNewlines)
    return "linux:\(bootID):\(pid):\(fields[19])"
  }
}
