public import PostgresNIO

/// Runs a postgres-nio client for the duration of `body`, then stops it.
///
/// A `PostgresClient` does nothing until its `run()` is running; this keeps the two together so
/// that no caller forgets either, and no connection outlives its use.
///
/// ```swift
/// let version = try await withRunningClient(configuration) { client in
///   try await TeamSchema.version(on: client, logger: logger)
/// }
/// ```
public func withRunningClient<Result: Sendable>(
  _ configuration: PostgresClient.Configuration,
  _ body: (PostgresClient) async throws -> Result
) async throws -> Result {
  let client = PostgresClient(configuration: configuration)
  return try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await client.run() }
    defer { group.cancelAll() }
    return try await body(client)
  }
}
