public import Dependencies
public import IdentifiedCollections
public import Models

extension StorageClient: TestDependencyKey {
  /// Fails the test when an endpoint is used without being overridden.
  public static let testValue = Self()

  /// The mock standups, in a database in memory.
  public static var previewValue: Self {
    .inMemory([.mock, .engineeringMock, .productMock])
  }

  /// A real SQLite database in memory, holding `standups`: what tests and previews use, so that
  /// they run the same code as the app. The database lives as long as the client.
  ///
  /// ```swift
  /// let store = TestStore(initialState: PersistedApp.State()) {
  ///   PersistedApp()
  /// } withDependencies: {
  ///   $0.storageClient = .inMemory([.mock])
  /// }
  /// ```
  public static func inMemory(_ standups: IdentifiedArrayOf<Standup> = []) -> Self {
    .database(StandupsDatabase(inMemoryHolding: standups))
  }
}
