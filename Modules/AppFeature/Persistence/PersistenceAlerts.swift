public import Composable
public import StorageClient

extension StorageError {
  /// What the app was doing with its storage.
  enum Operation {
    case keepingAside
    case loading
    case saving
  }

  /// The error a storage client threw; an error of another type (from a client that breaks
  /// its contract) is reported as a failure of what was being done.
  init(_ error: any Error, whileDoing operation: Operation) {
    if let error = error as? StorageError {
      self = error
      return
    }
    let problem = FileProblem(
      path: "",
      reason: .other("the storage reported \(type(of: error))"),
      technicalDetail: "\(error)"
    )
    switch operation {
    case .keepingAside: self = .backupFailed(problem)
    case .loading: self = .unreadable(problem)
    case .saving: self = .writeFailed(problem)
    }
  }
}

extension AlertState where Action == AppFeature.Action.Alert {
  /// Tells the user that the saved standups could not be read, and offers to keep them aside
  /// and start again.
  public static func dataFailedToLoad(_ error: StorageError) -> Self {
    AlertState {
      TextState("Data failed to load")
    } actions: {
      ButtonState(action: .keepUnreadableDataAside(then: .sampleData)) {
        TextState("Keep it aside, load sample data")
      }
      ButtonState(action: .keepUnreadableDataAside(then: .empty)) {
        TextState("Keep it aside, start empty")
      }
      ButtonState(role: .cancel) {
        TextState("Continue without saving")
      }
    } message: {
      TextState(
        """
        \(error)

        Nothing will be written over it. To start again, the app can keep it aside as a backup \
        beside it first.
        """
      )
    }
  }

  /// The alert for standups that failed to load: data that could not be read offers to keep it
  /// aside and start again; a path that holds no data file only says so.
  public static func loadFailed(_ error: StorageError) -> Self {
    guard case .notADataFile = error else { return .dataFailedToLoad(error) }
    return .notADataFile(error)
  }

  /// Tells the user that what is at the data file's path is not a file (a folder, a device),
  /// which the app leaves alone: it runs without saving.
  public static func notADataFile(_ error: StorageError) -> Self {
    AlertState {
      TextState("Standups cannot be saved")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Continue without saving")
      }
    } message: {
      TextState(
        """
        \(error)

        Your changes stay here until you quit; the app then offers to keep them in a recovery \
        file. To save them, start Standups with --data-file and the path of a file.
        """
      )
    }
  }

  /// Tells the user that the data that could not be read could not be kept aside either.
  public static func backupFailed(_ error: StorageError) -> Self {
    notice(
      "Nothing was saved",
      message: """
        \(error)

        Your changes are still here, and the saved data is untouched.
        """
    )
  }

  /// Tells the user that the standups could not be saved, and that nothing was lost yet.
  public static func saveFailed(_ error: StorageError) -> Self {
    notice(
      "Changes not saved",
      message: """
        \(error)

        Your changes are still here. Saving will be tried again with your next change.
        """
    )
  }

  /// Tells the user that the data comes from a newer release this one cannot read.
  public static func unreadableNewerRelease(formatVersion: Int) -> Self {
    notice(
      "Saved by a newer release",
      message: """
        The standups were saved by a newer release of Standups (format version \
        \(formatVersion)), which this release cannot read. They are left untouched, and no \
        changes are made. Open them with the newer release.
        """
    )
  }

  /// Tells the user that changes made while the standups loaded were dropped, because the
  /// data turned out to be read-only.
  public static var changesDiscarded: Self {
    notice(
      "Changes not kept",
      message: """
        The standups were saved by a newer release of Standups, so this release shows them \
        read-only. The changes made while they loaded were discarded.
        """
    )
  }

  /// Tells the user that a change was refused because the data is read-only.
  public static var changesRefused: Self {
    notice(
      "This data is read-only",
      message: """
        The standups were saved by a newer release of Standups. This release can show them, \
        but saving them would lose what the newer release added, so changes are not made. \
        Open them with the newer release to change them.
        """
    )
  }

  /// A notice the user can only acknowledge: a title, a message and "OK".
  private static func notice(_ title: String, message: String) -> Self {
    AlertState {
      TextState(title)
    } actions: {
      ButtonState(role: .cancel) {
        TextState("OK")
      }
    } message: {
      TextState(message)
    }
  }
}
