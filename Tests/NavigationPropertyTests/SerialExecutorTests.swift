import Testing

/// The suites whose tests run on the main serial executor, one test at a time.
///
/// `withMainSerialExecutor` flips one switch for the whole process and puts back what it found
/// when it ends. Two tests inside it at once (Swift Testing runs tests in parallel) break each
/// other: the first to end turns the switch off under the second, whose effects then run on
/// other threads, and its "let the effects run" yields are no longer enough.
@Suite(.serialized)
@MainActor
struct SerialExecutorTests {}
