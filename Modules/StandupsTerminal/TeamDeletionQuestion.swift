public import Composable
public import Models

/// The answer to the question asked when another member deleted a standup this machine had
/// changed without seeing the deletion.
public enum TeamDeletionAnswer: Equatable, Sendable {
  /// Keep it, as it is here, for the whole team: it comes back on every machine.
  case keep(Standup.ID)
  /// Let it go, as the other member chose.
  case letGo(Standup.ID)

  /// The standup the answer is about.
  public var standupID: Standup.ID {
    switch self {
    case .keep(let id), .letGo(let id): id
    }
  }
}

extension AlertState where Action == TeamDeletionAnswer {
  /// The standup the question is about.
  public var standupID: Standup.ID? {
    buttons.first?.action?.standupID
  }

  /// Asks what to do with a standup another member deleted while this machine changed it: the
  /// same choice the app gives when a second instance deletes a standup being edited. Keeping
  /// it, which loses nothing, is the default; Esc puts the question away until the next launch,
  /// so Keep it is no cancel button.
  public static func deletedByTeam(_ standup: Standup, by role: String) -> Self {
    AlertState {
      TextState("“\(standup.displayTitle)” was deleted by \(role)")
    } actions: {
      ButtonState(action: .keep(standup.id)) {
        TextState("Keep it")
      }
      ButtonState(role: .destructive, action: .letGo(standup.id)) {
        TextState("Let it go")
      }
    } message: {
      TextState(
        """
        You changed it here before this machine heard of the deletion. Keep it, with your \
        changes, for the whole team, or let it go?
        """
      )
    }
  }
}
