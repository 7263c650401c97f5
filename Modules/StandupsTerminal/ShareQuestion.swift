public import Composable
public import Models

/// The answer to the question the detail screen's `t` asks: share this standup with the team.
public enum ShareAnswer: Equatable, Sendable {
  /// Share it: it becomes the team's, with its past meetings.
  case share(Standup.ID)
}

extension AlertState where Action == ShareAnswer {
  /// Asks whether to make a personal standup the team's. Not sharing is the default: what is
  /// shared goes to everyone in the team, and stays the team's until this machine leaves it.
  public static func shareWithTeam(_ standup: Standup, team: String) -> Self {
    AlertState {
      TextState("Share “\(standup.displayTitle)” with “\(team)”?")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Keep it personal")
      }
      ButtonState(action: .share(standup.id)) {
        TextState("Share")
      }
    } message: {
      TextState(
        """
        Everyone in the team will see it and its past meetings, and their changes to it will \
        show here. It stays the team's until this machine leaves the team.
        """
      )
    }
  }
}
