import Foundation
import Models
import StorageClient
import TeamSync

/// This machine's teams as its database holds them, on the app's screen: their names (which let
/// `t` share a standup with one), the shared standups the list marks, and the question about
/// each standup another member deleted while this machine changed it. The user's answers (`t`'s
/// Share, Keep it or Let it go) are written here.
///
/// The live app and a script show the team through this alike, so that a script sees and
/// answers what a user does; only the live app runs the sync engine beside it
/// (``TeamSyncing``), a script never reaching the network.
struct TeamOnScreen: Sendable {
  /// The database, on a connection of its own: the store's serves the store.
  let database: StandupsDatabase
  /// The teams this machine had joined when the team was first shown; what the screen shows
  /// follows the database (``current()``): a team joined or left since (`team join` or
  /// `team leave` in a shell, a removal by the owner) shows, or no longer does.
  let memberships: [TeamMembership]

  /// Shows the team on `app` and lets its keys share standups and answer the team's questions;
  /// returns `nil` when this machine has joined no team (or its database cannot be opened a
  /// second time, which the app itself reports).
  ///
  /// When another program holds an earlier release's database, its team tables cannot be read
  /// until the app has migrated it: with `waitingForTheDatabase`, they are read again at that
  /// interval until they can be, and until this machine is in a team (the live app, which a
  /// `team join` in a shell may put in one); without, the team is not shown (a script).
  @MainActor
  static func show(
    dataFile: URL, on app: TerminalApp, waitingForTheDatabase interval: Duration? = nil
  ) async -> TeamOnScreen? {
    var options = StandupsDatabase.Options()
    // NB: The app opened the file first; one moved away since is not made again here.
    options.makesTheFileWhenMissing = false
    let database = StandupsDatabase(path: dataFile.path, options: options)
    guard (try? await database.load()) != nil,
      let memberships = await memberships(in: database, readingAgainEvery: interval),
      !memberships.isEmpty
    else { return nil }
    let team = TeamOnScreen(database: database, memberships: memberships)
    // NB: Weakly: the app holds these closures, and one holding the app would keep both alive
    // for good.
    app.shareWithTeam = { [weak app] id, name in
      // NB: The sync engine, where one runs, sees the change kept for the team at its next
      // look at the outbox.
      let current = await team.current()
      let chosen = current.first { $0.name(among: current) == name }
      var problem: StorageError?
      if let chosen {
        do throws(StorageError) {
          _ = try await database.share([id], with: chosen.id)
        } catch {
          problem = error
        }
      }
      guard let app else { return }
      if chosen == nil {
        await app.tell("This machine is no longer in “\(name)”: the standup stays yours.")
      } else if let problem {
        await app.tell("The standup was not shared with “\(name)”: \(problem)")
      }
      await team.showSharedStandups(on: app)
    }
    app.answerTeamDeletion = { [weak app] answer in
      let keep = if case .keep = answer { true } else { false }
      let wasAsked: Result<Bool, StorageError>
      do throws(StorageError) {
        wasAsked = .success(
          try await database.answerTeamDeletion(of: answer.standupID, keep: keep))
      } catch {
        wasAsked = .failure(error)
      }
      guard let app else { return }
      await MainActor.run {
        switch wasAsked {
        case .success(false):
          app.tell(
            "Another instance of Standups answered first about that deleted standup; "
              + "your answer changed nothing.")
        case .failure(let problem):
          app.tell("Your answer about the deleted standup was not saved: \(problem)")
        case .success(true): break
        }
        app.readChangesElsewhere()
      }
      await team.askAboutDeletions(on: app)
    }
    await team.readAgain(on: app)
    return team
  }

  /// The teams `database` holds; `nil` when they cannot be read. With `interval`, they are
  /// read again at that interval while another program holds the database or there are none.
  private static func memberships(
    in database: StandupsDatabase, readingAgainEvery interval: Duration?
  ) async -> [TeamMembership]? {
    while true {
      do {
        let memberships = try await database.teamMemberships()
        guard let interval, memberships.isEmpty else { return memberships }
        try await Task.sleep(for: interval)
      } catch let error as StorageError {
        guard let interval, error.isWaitingForAnotherProgram else { return nil }
        do { try await Task.sleep(for: interval) } catch { return nil }
      } catch {
        return nil
      }
    }
  }

  /// Reads the team's state again and shows it: the shared standups, and a question about a
  /// standup another member deleted, unless one is up or the user put it away.
  func readAgain(on app: TerminalApp) async {
    await showSharedStandups(on: app)
    await askAboutDeletions(on: app)
  }

  /// Reads the shared standups again and marks them; the status line stays as it is.
  func showSharedStandups(on app: TerminalApp) async {
    let current = await current()
    let shared = await sharedStandups(among: current)
    await MainActor.run {
      app.showTeam(current.map { $0.name(among: current) }, status: app.view.team, shared: shared)
    }
  }

  /// The teams this machine is in now, in the order it joined them.
  func current() async -> [TeamMembership] {
    (try? await database.teamMemberships()) ?? memberships
  }

  /// Each shared standup with its team's name (``TeamMembership/name(among:)``), among the teams
  /// `current` names.
  func sharedStandups(among current: [TeamMembership]) async -> [Standup.ID: String] {
    let teams = (try? await database.sharedStandupTeams()) ?? [:]
    return teams.compactMapValues { id in
      current.first { $0.id == id }?.name(among: current)
    }
  }

  /// Asks about the standups another member deleted while this machine changed them.
  func askAboutDeletions(on app: TerminalApp) async {
    let questions = (try? await database.teamDeletionQuestions()) ?? []
    await app.askAboutTeamDeletions(questions)
  }
}

/// What each team's engine last said needs saying, in one status line: a team's own line when
/// the machine is in one team, each line named by its team when in several.
///
/// Teams offline for the same reason share one sentence, their waiting changes added up, so
/// that the count stays on the line however many teams there are.
actor StatusLines {
  private var statuses: [String: TeamSyncStatus] = [:]
  /// Teams whose engine stopped with something to say after the machine left them (the owner
  /// removed it): no longer among the machine's teams, they still say so.
  private var left: [String] = []

  /// The status line once `team`'s engine says `status` (`nil`: nothing needs saying), among the
  /// teams this machine is in now.
  func saying(_ status: TeamSyncStatus, of team: String, among current: [String]) -> String? {
    statuses[team] = status
    if case .stopped = status, !current.contains(team), !left.contains(team) { left.append(team) }
    let teams = current + left.filter { !current.contains($0) }
    var said: [(names: [String], status: TeamSyncStatus)] = []
    for name in teams {
      guard let status = statuses[name], status.needsSaying else { continue }
      if case .offline(let waiting, let problem) = status,
        let index = said.firstIndex(where: { $0.status.isOffline(for: problem) }),
        case .offline(let before, _) = said[index].status
      {
        said[index].names.append(name)
        said[index].status = .offline(waiting: before + waiting, problem: problem)
      } else {
        said.append(([name], status))
      }
    }
    guard teams.count > 1 else { return said.first?.status.line }
    let lines = said.map { names, status in
      // NB: A removal's line names its team already.
      if case .stopped(_, .removed) = status { return status.line }
      return names.map { "“\($0)”" }.joined(separator: ", ") + ": \(status.line)"
    }
    return lines.isEmpty ? nil : lines.joined(separator: " · ")
  }
}

extension TeamSyncStatus {
  /// Whether the status line says it: the engine is offline or stopped.
  fileprivate var needsSaying: Bool {
    switch self {
    case .offline, .stopped: true
    case .connecting, .online: false
    }
  }

  /// Whether this is offline for the reason `problem` gives, in the words the line uses.
  fileprivate func isOffline(for problem: SyncProblem) -> Bool {
    guard case .offline(_, let own) = self else { return false }
    return Self.offline(waiting: 0, problem: own).line
      == Self.offline(waiting: 0, problem: problem).line
  }
}
