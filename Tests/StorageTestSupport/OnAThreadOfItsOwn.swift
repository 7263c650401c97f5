public import Foundation

/// Runs `work`, which blocks its thread (waiting for a program to end, reading a pipe to its
/// end), on a new thread, and resumes the caller when it is done.
///
/// Why: Swift runs every test of a process on one pool of threads, as many as the machine has
/// cores. A test that blocks one of them for the seconds `initdb` or a `standups` command takes
/// stalls every other test's tasks meanwhile, and with them what a test times (`PartitionTests`:
/// offline within ten seconds of a cut). Invariant: no test helper blocks a thread of that pool
/// for longer than a file read or a short `poll`.
///
/// ```swift
/// try process.run()
/// let output = try await onAThreadOfItsOwn { pipe.fileHandleForReading.readDataToEndOfFile() }
/// ```
public func onAThreadOfItsOwn<Value: Sendable>(
  _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Reads a started process's standard output and standard error to their ends, each on a
/// thread of its own so that a chatty one never blocks on a full pipe, and waits for it to exit.
///
/// ```swift
/// try process.run()
/// let (output, errors) = try await untilItExits(process, output: outputPipe, errors: errorPipe)
/// ```
public func untilItExits(
  _ process: Process, output: Pipe, errors: Pipe
) async throws -> (output: Data, errors: Data) {
  async let printed = onAThreadOfItsOwn { output.fileHandleForReading.readDataToEndOfFile() }
  async let complained = onAThreadOfItsOwn { errors.fileHandleForReading.readDataToEndOfFile() }
  let read = try await (output: printed, errors: complained)
  try await onAThreadOfItsOwn { process.waitUntilExit() }
  return read
}
