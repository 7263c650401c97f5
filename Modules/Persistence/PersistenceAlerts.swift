public import Composable
public import Models
public import StorageClient

extension StorageError {
  /// What the app was doing with its storage.
  enum Operation {
    case keepingAside
    case loading
    case writing
  }

  /// The error a storage client threw; an error of another type (from a client that breaks its
  /// contract) is reported as a failure of what was being done.
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
    case .writing: self = .writeFailed(problem)
    }
  }

}

extension AlertState where Action == PersistedApp.Action.Alert {
  /// The alert for standups that failed to load: data that could be moved aside is offered to
  /// be, to start again; anything else only says why changes will not be saved.
  public static func loadFailed(_ error: StorageError) -> Self {
    error.isMovableAside ? .dataFailedToLoad(error) : .cannotSave(error)
  }

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

        Nothing will be written over it. To start again, the app can move it aside, unchanged, \
        as a backup beside it first.
        """
      )
    }
  }

  /// Tells the user that the standups cannot be saved where they are (a folder or a device at
  /// the path, a database that cannot be opened), which the app leaves alone.
  public static func cannotSave(_ error: StorageError) -> Self {
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

        Your changes stay here until you quit, and quitting asks what to do with them. To save \
        them, start Standups with --data-file and the path of a file.
        """
      )
    }
  }

  /// Tells the user that a deletion was not made: nothing is written, and a recovery file cannot
  /// carry a deletion.
  public static func deletionRefused(_ problem: String?) -> Self {
    notice(
      "Not deleted",
      message: """
        \(problem ?? "Changes are not being saved.")

        A deletion cannot wait for later: nothing was deleted.
        """
    )
  }

  /// Tells the user that the store is only read, and why.
  public static func readOnly(_ reason: ReadOnlyReason) -> Self {
    notice(
      "Changes will not be saved",
      message: """
        \(reason)

        You can still make changes, but not delete; they stay here until you quit, and quitting \
        asks what to do with them.
        """
    )
  }

  /// Tells the user that another instance, or `member` of the team, deleted the standup they
  /// are editing or recording, and asks whether to keep it. Keeping it is the harmless answer,
  /// and the default.
  public static func deletedElsewhere(
    _ standup: Standup, whileRecording: Bool, by member: String? = nil
  ) -> Self {
    let deleter = member ?? "Another instance of Standups"
    let keeping = member == nil ? "stored again" : "the team's again, on every machine,"
    return AlertState {
      TextState(
        "“\(standup.displayTitle)” was deleted " + (member.map { "by \($0)" } ?? "elsewhere"))
    } actions: {
      ButtonState(role: .cancel, action: .keepDeletedStandup(standup.id)) {
        TextState(whileRecording ? "Keep it, with the meeting" : "Keep it, with my edit")
      }
      ButtonState(role: .destructive, action: .letDeletedStandupGo(standup.id)) {
        TextState(whileRecording ? "Let it go, and the meeting" : "Let it go")
      }
    } message: {
      TextState(
        whileRecording
          ? """
          \(deleter) deleted this standup while you were recording a meeting of it. Keep it, and \
          it is \(keeping) with the meeting; or let it go, and the meeting goes with it.
          """
          : """
          \(deleter) deleted this standup while you edit it. Keep it, and it is \(keeping) with \
          your edit; or let it go, and your edit is discarded.
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

  /// Tells the user that a change could not be saved yet, and that nothing was lost.
  public static func saveFailed(_ error: StorageError) -> Self {
    notice(
      "Changes not saved yet",
      message: """
        \(error)

        Your changes are still here. Saving is tried again on its own, and with your next \
        change; the status line says how it goes.
        """
    )
  }

  /// Tells the user that one change could not be saved, and never will be as it is; the others
  /// are.
  public static func notSaved(_ error: StorageError) -> Self {
    notice(
      "Not saved",
      message: """
        \(error)

        The change is still here; quitting keeps it in a recovery file, which `standups \
        import` brings back. Your other changes are saved as usual.
        """
    )
  }

  /// Tells the user that the database the app opened is no longer the one at its path, so
  /// nothing more is written.
  public static func stoppedSaving(_ error: StorageError) -> Self {
    notice(
      "Changes are no longer saved",
      message: """
        \(error)

        Quitting writes your standups to a recovery file, which `standups import` brings back \
        into the database at the path.
        """
    )
  }

  /// Tells the user that another instance's save replaced a value of theirs, and offers to put
  /// it back. Leaving it is the harmless answer, and the default.
  public static func valueReplaced(_ replaced: ReplacedValue) -> Self {
    AlertState {
      TextState("A value of yours was replaced")
    } actions: {
      ButtonState(role: .cancel, action: .leaveReplacedValue(replaced.id)) {
        TextState("Leave it")
      }
      ButtonState(action: .putReplacedValueBack(replaced.id)) {
        TextState("Put mine back")
      }
    } message: {
      TextState(replaced.sentence)
    }
  }

  /// Tells the user that an attendee they renamed had been removed in another instance, and is
  /// kept; letting them go is offered.
  public static func attendeeRemovedElsewhere(_ attendee: Attendee, of standup: Standup) -> Self {
    AlertState {
      TextState("“\(attendee.name)” was removed elsewhere")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Keep them")
      }
      ButtonState(role: .destructive, action: .letAttendeeGo(attendee.id, from: standup.id)) {
        TextState("Let them go")
      }
    } message: {
      TextState(
        """
        Another instance of Standups removed this attendee from “\(standup.displayTitle)” while \
        you renamed them. They are kept, with the name you gave them; or let them go.
        """
      )
    }
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
