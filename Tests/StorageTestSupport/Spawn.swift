public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Darwin)
  /// What `posix_spawn` is told to do with descriptors before the program starts.
  public typealias SpawnFileActions = posix_spawn_file_actions_t?
  typealias SpawnAttributes = posix_spawnattr_t?
#else
  /// What `posix_spawn` is told to do with descriptors before the program starts.
  public typealias SpawnFileActions = posix_spawn_file_actions_t
  typealias SpawnAttributes = posix_spawnattr_t
#endif

/// Starts `arguments[0]` with `posix_spawn`: its standard input, output and error as
/// `standardDescriptors` sets them up, and no other descriptor of the test process.
///
/// Why: tests run side by side in one process, and a child inherits every descriptor the process
/// holds without close-on-exec as it starts — another test's pipe, pseudo-terminal or socket —
/// and keeps it as long as it lives. A PostgreSQL server started for a test lives for the test,
/// or for the run. A pipe is read to its end only once every copy of its writing end is closed,
/// so a test that read a short program's output to its end waited for that server instead, on
/// the thread it read with, and the run never ended. Invariant: a child started here holds
/// descriptors 0, 1 and 2 and nothing else (`SpawnTests`: a pipe the test holds meanwhile
/// reaches its end while the child runs).
///
/// Needs glibc 2.34 or later on Linux (`posix_spawn_file_actions_addclosefrom_np`).
///
/// ```swift
/// let pid = try spawn(["/bin/sh", "-c", "read line"]) { actions in
///   posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
/// }
/// ```
public func spawn(
  _ arguments: [String],
  environment: [String: String] = ProcessInfo.processInfo.environment,
  settingUp standardDescriptors: (inout SpawnFileActions) -> Void
) throws -> pid_t {
  var actions = SpawnFileActions()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  var attributes = SpawnAttributes()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  standardDescriptors(&actions)
  #if canImport(Darwin)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
  #else
    // NB: After the caller's actions, which may copy a descriptor above 2 onto 0, 1 or 2.
    guard let closeFrom = addCloseFrom, closeFrom(&actions, 3) == 0 else {
      throw SpawnError(
        "posix_spawn_file_actions_addclosefrom_np is missing or failed: the tests need glibc 2.34 "
          + "or later")
    }
  #endif
  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid = pid_t()
  let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
  guard spawned == 0 else {
    throw SpawnError("posix_spawn \(arguments[0]) failed: \(String(cString: strerror(spawned)))")
  }
  return pid
}

/// Why a program could not be started, in a sentence.
public struct SpawnError: Error, CustomStringConvertible {
  /// The sentence.
  public var description: String

  init(_ description: String) { self.description = description }
}

#if !canImport(Darwin)
  private typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<SpawnFileActions>, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time: Swift's Glibc
  /// module declares only what glibc shows without `_GNU_SOURCE`, and this is a GNU extension.
  private let addCloseFrom: AddCloseFrom? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()
#endif
