public import Composable
public import Foundation

/// The answer to the question the app asks when the user quits with changes it could not save.
public enum QuitAnswer: Equatable, Sendable {
  /// Quit: the changes are in the recovery file named, or, when none could be written, lost.
  case quit
}

extension AlertState where Action == QuitAnswer {
  /// Asks whether to quit although some changes could not be saved. Staying is the default.
  ///
  /// The question names where the changes are only once they are there: the app writes the
  /// recovery file before it asks (`keptIn`), and when no place took one, says that quitting
  /// loses them.
  ///
  /// - Parameters:
  ///   - problem: Why the changes are not saved, in the app's words.
  ///   - keptIn: The recovery file already written, or why none could be.
  public static func quitWithUnsavedChanges(
    problem: String,
    keptIn: Result<URL, RecoveryFailure>
  ) -> Self {
    switch keptIn {
    case .success(let file):
      AlertState {
        TextState("Quit with unsaved changes?")
      } actions: {
        ButtonState(role: .cancel) {
          TextState("Stay")
        }
        ButtonState(role: .destructive, action: .quit) {
          TextState("Quit")
        }
      } message: {
        TextState(
          """
          \(problem)

          Your standups are kept in \(file.path); bring them back with: standups import \
          \(file.path)
          """
        )
      }
    case .failure(let failure):
      AlertState {
        TextState("Quit and lose your changes?")
      } actions: {
        ButtonState(role: .cancel) {
          TextState("Stay")
        }
        ButtonState(role: .destructive, action: .quit) {
          TextState("Quit and lose them")
        }
      } message: {
        TextState(
          """
          \(problem)

          They could not be kept in a file either: \(failure). If you quit now, they are lost.
          """
        )
      }
    }
  }
}
