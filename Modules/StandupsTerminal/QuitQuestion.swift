public import Composable

/// The answer to the question the app asks when the user quits with changes it could not save.
public enum QuitAnswer: Equatable, Sendable {
  /// Quit, keeping the changes in a recovery file.
  case quit
}

extension AlertState where Action == QuitAnswer {
  /// Asks whether to quit although some changes could not be saved. Staying is the default;
  /// quitting keeps the changes in a recovery file instead of the data file.
  ///
  /// - Parameters:
  ///   - problem: Why the changes are not saved, in the app's words.
  ///   - recoveryFolder: Where the recovery file would go.
  public static func quitWithUnsavedChanges(problem: String, recoveryFolder: String) -> Self {
    AlertState {
      TextState("Quit with unsaved changes?")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Stay")
      }
      ButtonState(role: .destructive, action: .quit) {
        TextState("Quit, keep them in a recovery file")
      }
    } message: {
      TextState(
        """
        \(problem)

        If you quit now, your standups are written to a recovery file in \(recoveryFolder) \
        instead, and the app says where.
        """
      )
    }
  }
}
