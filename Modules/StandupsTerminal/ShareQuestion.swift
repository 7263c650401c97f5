public import Composable
public import Models

/// The answer to the question the detail screen's `t` asks: share this standup with a team.
public enum ShareAnswer: Equatable, Sendable {
  /// Share it with `team`: it becomes that team's, with its past meetings.
  case share(Standup.ID, team: String)
}

extension AlertState where Action == ShareAnswer {
  /// Asks whether to make a personal standup a team's: with one team, whether to share it; with
  /// several, with which, one button each. Not sharing is the default: what is shared goes to
  /// everyone in the team, and stays that team's until this machine leaves it.
  public static func shareWithTeam(_ standup: Standup, teams: [String]) -> Self {
    AlertState {
      TextState(
        teams.count == 1
          ? "Share “\(standup.displayTitle)” with “\(teams[0])”?"
          : "Share “\(standup.displayTitle)” with which team?")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Keep it personal")
      }
      for team in teams {
        ButtonState(action: .share(standup.id, team: team)) {
          TextState(teams.count == 1 ? "Share" : "Share with “\(team)”")
        }
      }
    } message: {
      TextState(
        """
        Everyone in the team will see it and its past meetings, and their changes to it will \
        show here. It stays that team's, and no other's, until this machine leaves the team.
        """
      )
    }
  }
}
