import Models
import Persistence

// Which alert the user is answering: the quit question, the app's own about its data, a team's
// deletion question, or the one on the screen on top, each with what its buttons send.

extension AppView {
  /// The alert the user is answering, if any: whether to quit first, then the app's own (about
  /// its data), then the one on the screen on top.
  static func presentedAlert(in state: PersistedApp.State, _ view: AppViewState) -> PresentedAlert?
  {
    if let question = view.quitQuestion {
      return PresentedAlert(question) { $0 == .presented(.quit) ? .quitAnyway : .stay }
    }
    if let question = view.teamDeletionQuestion {
      return PresentedAlert(
        question,
        command: { answer -> Command in
          guard case .presented(let answer) = answer else { return .putTeamDeletionAway }
          return .answerTeamDeletion(answer)
        })
    }
    if let question = view.shareQuestion {
      return PresentedAlert(
        question,
        command: { answer -> Command in
          guard case .presented(.share(let id, let team)) = answer else { return .keepPersonal }
          return .share(id, team: team)
        })
    }
    if let alert = state.alert {
      // NB: Every alert of the app itself is about the data, and the front end knows its file.
      var presented = PresentedAlert(alert) { .alert($0) }
      let file = [
        view.dataFile.map { "Data file: \($0)" },
        state.storage.backup.map { "Kept aside as: \($0)" },
      ].compactMap { $0 }
      if !file.isEmpty {
        presented.message = ([presented.message].compactMap { $0 } + file).joined(separator: "\n\n")
      }
      return presented
    }
    guard state.app.destination == nil else { return nil }
    switch topScreen(state) {
    case .list:
      return state.app.list.alert.map { alert in
        let deleted = alert.buttons.lazy.compactMap { button -> Standup.ID? in
          guard case .confirmDeletion(let id)? = button.action else { return nil }
          return id
        }.first
        return PresentedAlert(alert) { .app(.list(.alert($0))) }
          .sayingItGoesForTheTeam(deleting: deleted, view)
      }
    case .element(let id, .detail(let detail)):
      return detail.alert.map { alert in
        let deletes = alert.buttons.contains { $0.action == .confirmDeletion }
        return PresentedAlert(alert) {
          .app(.path(.element(id: id, action: .detail(.alert($0)))))
        }
        .sayingItGoesForTheTeam(deleting: deletes ? detail.standup.id : nil, view)
      }
    case .element(let id, .meeting(let meeting)):
      return meeting.alert.map {
        PresentedAlert($0) { .app(.path(.element(id: id, action: .meeting(.alert($0))))) }
      }
    case .element(let id, .record(let record)):
      return record.alert.map {
        PresentedAlert($0) { .app(.path(.element(id: id, action: .record(.alert($0))))) }
      }
    }
  }
}

extension PresentedAlert {
  /// The question, and, when it deletes a shared standup, that the deletion goes for everyone in
  /// the team: the screens' own questions know nothing of teams.
  fileprivate func sayingItGoesForTheTeam(deleting id: Standup.ID?, _ view: AppViewState) -> Self {
    guard let id, let team = view.sharedStandups[id] else { return self }
    var presented = self
    let forTheTeam = "It is shared with “\(team)”: it is deleted on every machine of the team."
    presented.message = [message, forTheTeam].compactMap { $0 }.joined(separator: "\n\n")
    return presented
  }
}
