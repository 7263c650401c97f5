public import CasePaths
public import Composable
public import StorageClient

extension AppFeature {
  /// Where loading and saving the standups have got: the state of ``StandupsPersistence``.
  public struct Persistence: Equatable, Sendable {
    /// What the app may do with its data.
    public var status = Status.notLoaded

    /// Whether a write, or the quiet second after it, is in progress.
    public var isSaving = false

    /// Whether the standups changed since the last write began, or, while the data could not be
    /// loaded, since then: changes that quitting must not lose without asking.
    public var hasUnsavedChanges = false

    /// Why the last write failed, if it did. The next change, or a flush, tries again.
    public var lastWriteError: StorageError?

    /// Where the data that could not be read was kept, once it was.
    public var backup: String?

    /// Changes made while the standups were loading, merged into them when they land.
    public var changesBeforeLoad = ChangesBeforeLoad()

    /// Alerts held back while the user answers another one, oldest first.
    public var waitingAlerts: [AlertState<Action.Alert>] = []

    /// The revision of the last write started; each write has a higher one, so that a write
    /// started earlier never lands after it.
    public var revision = 0

    /// Creates the bookkeeping of a fresh app.
    public init() {}

    /// What the app may do with its data.
    public enum Status: Equatable, Sendable {
      /// Loading has not started.
      case notLoaded
      /// Loading; changes made meanwhile are merged into what loads.
      case loading
      /// Loaded (or there was nothing to load): changes are saved.
      case loaded
      /// The stored data could not be read, or the path holds no data file. Changes are kept in
      /// memory and nothing is written (until the user has unreadable data kept aside).
      case notSaving(StorageError)
      /// The stored data comes from a newer release: it is shown, changes are refused, and
      /// nothing is written.
      case readOnly(formatVersion: Int)
    }

    /// How to start again once the data that could not be read is kept aside.
    public enum FreshStart: Equatable, Sendable {
      /// With the sample standups, beside anything added meanwhile.
      case sampleData
      /// With what is on screen (nothing, unless something was added meanwhile).
      case empty
    }

    /// Whether changes to the standups are written.
    public var isWritable: Bool {
      status == .loaded
    }

    /// Whether some changes are not in the data file, once a flush is over: they could not be
    /// written, or the data could not be loaded and nothing is written. Quitting then asks.
    public var hasChangesNotInTheDataFile: Bool {
      hasUnsavedChanges || lastWriteError != nil
    }

    /// A line for a status bar: why changes are not being saved, or why the last save failed.
    /// `nil` when all is well.
    public var problem: String? {
      switch status {
      case .notSaving(let error):
        return "Changes are not being saved. \(error)"
      case .readOnly:
        return "Read-only: this file is from a newer release of Standups."
      case .notLoaded, .loading, .loaded:
        return lastWriteError.map(\.description)
      }
    }
  }

  /// What happens to the app's data: loading, saving, and what the storage reports.
  @CasePathable
  public enum PersistenceAction: Equatable, Sendable {
    /// The app is about to exit: write what is unsaved now, and wait for it.
    case flushPendingSave
    /// Another instance may have changed the data (a front end asks from time to time).
    case lookForChangesElsewhere
    case saveCooldownEnded
    case saveFailed(StorageError)
    case standupsLoaded(Result<StoredStandups, StorageError>)
    /// The stored standups changed behind the app's back, seen by a save or a look of the
    /// given revision.
    case storedDataChanged(StoredChange, revision: Int)
    case unreadableDataKeptAside(Result<String?, StorageError>, then: Persistence.FreshStart)
  }
}
