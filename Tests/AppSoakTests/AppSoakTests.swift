import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import ConcurrencyExtras
import Dependencies
import Foundation
import IssueReporting
import MeetingFeature
import Models
import Persistence
import PropertyBased
import RecordMeeting
import SpeechClient
import StandupDetail
import StandupForm
import StandupsList
import StorageClient
import Testing

/// A seeded random user drives the whole app, on a real database, for thousands of steps,
/// choosing only what the screen on top could send, while now and then another instance of the
/// app changes the same database; the app's rules are checked after every step.
///
/// `STANDUPS_SOAK_STEPS` sets the number of steps (10,000 by default; CI's long run uses
/// 100,000) and `STANDUPS_SOAK_SEED` replays a seed that a failure printed.
@MainActor
struct AppSoakTests {
  @Test(.timeLimit(.minutes(20)))
  func aRandomUserNeverBreaksTheApp() async {
    let environment = ProcessInfo.processInfo.environment
    let steps = environment["STANDUPS_SOAK_STEPS"].flatMap(Int.init) ?? 10_000
    let seed = environment["STANDUPS_SOAK_SEED"].flatMap(UInt64.init) ?? 20_261_122
    await withSerialEffects {
      guard var soak = await Soak(seed: seed) else {
        Issue.record("The soak's database could not be made.")
        return
      }
      for step in 1...steps {
        await soak.takeAStep()
        soak.checkTheRules(after: step)
        if step.isMultiple(of: 500) || step == steps {
          await soak.checkTheDatabase(after: step)
        }
        guard soak.failure == nil else { break }
      }
      #expect(soak.failure == nil, "seed \(seed): \(soak.failure ?? "")")
      await soak.tearDown()
      #expect(soak.store.effectRuntime.runningCount == 0, "seed \(seed)")
    }
  }
}

/// The app, its test doubles, and the random user.
@MainActor
struct Soak {
  let seed: UInt64
  var random: Xoshiro
  let clock = TestClock()
  let folder: URL
  /// Another instance of the app on the same database.
  let elsewhere: StandupsDatabase
  let speech = TypedSpeech()
  let issues = IssueCollector()
  let store: Store<PersistedApp.State, PersistedApp.Action>
  var failure: String?
  private var lastAction = "none"
  private var mostEffectsRunning = 0

  init?(seed: UInt64) async {
    self.seed = seed
    self.random = Xoshiro(seed: (seed, ~seed, seed &* 0x9E37_79B9, 0xB5AD_4ECE_DA1C_E2A9))
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-soak-\(UUID().uuidString)", isDirectory: true)
    let path = folder.appendingPathComponent("standups.sqlite").path
    let database = StandupsDatabase(path: path)
    elsewhere = StandupsDatabase(path: path)
    guard (try? await database.load()) != nil, (try? await elsewhere.load()) != nil,
      (try? await elsewhere.apply(.added([.mock, .engineeringMock]))) != nil
    else { return nil }
    let stored: Result<StoredStandups, StorageError>
    do {
      stored = .success(try await database.load())
    } catch {
      return nil
    }
    let (clock, speech) = (clock, speech)
    store = Store(initialState: PersistedApp.State(stored: stored)) {
      PersistedApp()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = Date(timeIntervalSince1970: 1_800_000_000)
      $0.storageClient = .database(database)
      $0.uuid = .incrementing
      $0.soundClient.playSpeakerChange = {}
      $0.speechClient = speech.client
    }
  }

  /// Sends an action of the app's screens.
  mutating func send(_ action: AppFeature.Action) async {
    await send(.app(action))
  }

  /// Sends `action` with the issues it reports counted, and lets the effects it starts run.
  mutating func send(_ action: PersistedApp.Action) async {
    lastAction = "\(action)"
    withIssueReporters([issues]) {
      _ = store.send(action)
    }
    await settle()
  }

  func settle() async {
    for _ in 0..<4 {
      await Task.megaYield()
    }
  }

  /// Advances the clock by `seconds`, one second at a time, so that every tick is handled.
  mutating func wait(seconds: Int) async {
    lastAction = "wait \(seconds) s"
    for _ in 0..<seconds {
      await withIssueReporters([issues]) {
        await clock.advance(by: .seconds(1))
      }
      await settle()
    }
  }

  // MARK: - The user

  mutating func takeAStep() async {
    if Int.random(in: 0..<40, using: &random) == 0 {
      return await changeElsewhere()
    }
    let persisted = store.state
    if let alert = persisted.alert {
      return await answer(alert, send: { PersistedApp.Action.alert($0) })
    }
    let state = persisted.app
    if let destination = state.destination {
      return await fillIn(destination)
    }
    if let alert = state.list.alert {
      return await answer(alert, send: { .list(.alert($0)) })
    }
    guard let top = state.path.last, let id = state.path.ids.last else {
      return await useTheList(state.list)
    }
    switch top {
    case .detail(let detail):
      await useTheDetail(detail, id: id)
    case .meeting(let meeting):
      await useTheMeeting(meeting, id: id)
    case .record(let record):
      await useTheRecorder(record, id: id)
    }
  }

  /// Another instance of the app changes the database; this one reads the change.
  private mutating func changeElsewhere() async {
    lastAction = "a change elsewhere"
    let standups = (try? await elsewhere.readStandups()) ?? []
    let change: StandupsChange
    switch (Int.random(in: 0..<3, using: &random), standups.randomElement(using: &random)) {
    case (0, let standup?):
      change = .deleted(standup.id)
    case (1, let standup?):
      change = .edited(standup.id, StandupEdit(title: "Renamed elsewhere", theme: .oxblood))
    default:
      change = .added([.productMock])
    }
    _ = try? await elsewhere.apply(change)
    await store.send(.readChangesElsewhere).finish()
    await settle()
  }

  private mutating func answer<Alert>(
    _ alert: AlertState<Alert>,
    send embed: (PresentationAction<Alert>) -> AppFeature.Action
  ) async {
    await answer(alert) { PersistedApp.Action.app(embed($0)) }
  }

  private mutating func answer<Alert>(
    _ alert: AlertState<Alert>,
    send embed: (PresentationAction<Alert>) -> PersistedApp.Action
  ) async {
    let actions = alert.buttons.compactMap(\.action)
    if let action = actions.randomElement(using: &random), Bool.random(using: &random) {
      await send(embed(.presented(action)))
    } else {
      await send(embed(.dismiss))
    }
  }

  private mutating func useTheList(_ list: StandupsList.State) async {
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<4 where !list.standups.isEmpty:
      await send(.list(.standupTapped(id: list.standups.randomElement(using: &random)!.id)))
    case 4..<6:
      await send(.list(.addButtonTapped))
    case 6 where !list.standups.isEmpty:
      await send(.list(.deleteButtonTapped(id: list.standups.randomElement(using: &random)!.id)))
    case 7:
      await send(.list(.loadSampleDataButtonTapped))
    default:
      await wait(seconds: Int.random(in: 1...3, using: &random))
    }
  }

  private mutating func fillIn(_ destination: AppFeature.Destination.State) async {
    let (form, isAdding) =
      switch destination {
      case .add(let form): (form, true)
      case .edit(let form): (form, false)
      }
    let embed: (StandupForm.Action) -> AppFeature.Action = { action in
      .destination(.presented(isAdding ? .add(action) : .edit(action)))
    }
    switch Int.random(in: 0..<12, using: &random) {
    case 0..<3:
      let titles = ["Design", "Platform", "", "  ", "Café ☕️", "A very long standup title"]
      await send(embed(.titleChanged(titles.randomElement(using: &random)!)))
    case 3:
      await send(embed(.durationChanged(minutes: Int.random(in: 1...40, using: &random))))
    case 4:
      await send(embed(.themeChanged(Theme.allCases.randomElement(using: &random)!)))
    case 5:
      await send(embed(.addAttendeeButtonTapped))
    case 6:
      let attendee = form.standup.attendees.randomElement(using: &random)!
      let names = ["Blob", "Ada", "", "Grace Hopper"]
      await send(
        embed(.attendeeNameChanged(id: attendee.id, name: names.randomElement(using: &random)!))
      )
    case 7:
      let offset = Int.random(in: 0..<form.standup.attendees.count, using: &random)
      await send(embed(.deleteAttendees(atOffsets: [offset])))
    case 8..<10:
      await send(isAdding ? .confirmAddButtonTapped : .doneEditingButtonTapped)
    default:
      await send(isAdding ? .dismissAddButtonTapped : .cancelEditButtonTapped)
    }
  }

  private mutating func useTheDetail(_ detail: StandupDetail.State, id: StackElementID) async {
    if let alert = detail.alert {
      return await answer(alert, send: { .path(.element(id: id, action: .detail(.alert($0)))) })
    }
    let send: (StandupDetail.Action) -> AppFeature.Action = {
      .path(.element(id: id, action: .detail($0)))
    }
    switch Int.random(in: 0..<12, using: &random) {
    case 0..<2:
      await self.send(send(.editButtonTapped))
    case 2:
      await self.send(send(.deleteButtonTapped))
    case 3..<6:
      await self.send(send(.startMeetingButtonTapped))
      if case .record = store.state.app.path.last, let recorder = store.state.app.path.ids.last {
        await self.send(.path(.element(id: recorder, action: .record(.onTask))))
      }
    case 6 where !detail.standup.meetings.isEmpty:
      await self.send(
        send(.meetingTapped(id: detail.standup.meetings.randomElement(using: &random)!.id)))
    case 7 where !detail.standup.meetings.isEmpty:
      await self.send(send(.deleteMeetings(atOffsets: [0])))
    case 8..<10:
      await self.send(.path(.popFrom(id: id)))
    default:
      await wait(seconds: Int.random(in: 1...3, using: &random))
    }
  }

  private mutating func useTheMeeting(_ meeting: MeetingFeature.State, id: StackElementID) async {
    if let alert = meeting.alert {
      return await answer(alert, send: { .path(.element(id: id, action: .meeting(.alert($0)))) })
    }
    if Bool.random(using: &random) {
      await send(.path(.element(id: id, action: .meeting(.deleteButtonTapped))))
    } else {
      await send(.path(.popFrom(id: id)))
    }
  }

  private mutating func useTheRecorder(_ record: RecordMeeting.State, id: StackElementID) async {
    if let alert = record.alert {
      return await answer(alert, send: { .path(.element(id: id, action: .record(.alert($0)))) })
    }
    let send: (RecordMeeting.Action) -> AppFeature.Action = {
      .path(.element(id: id, action: .record($0)))
    }
    switch Int.random(in: 0..<12, using: &random) {
    case 0..<3:
      await self.send(send(.nextButtonTapped))
    case 3:
      await self.send(send(.endMeetingButtonTapped))
    case 4..<7:
      let lines = ["Shipped the timer.", "Reviewing the form.", "No blockers.", "ü 日本 🦆"]
      speech.type(lines.randomElement(using: &random)!)
      await settle()
    case 7:
      speech.fail()
      await settle()
    default:
      await wait(seconds: Int.random(in: 1...20, using: &random))
    }
  }

  // MARK: - The rules

  mutating func checkTheRules(after step: Int) {
    guard failure == nil else { return }
    let state = store.state.app
    if issues.count > 0 {
      failure = "step \(step), after \(lastAction): an issue was reported: \(issues.messages)"
      return
    }
    for element in state.path {
      let standup = element.standup
      guard state.list.standups[id: standup.id] == standup else {
        failure =
          "step \(step), after \(lastAction): a screen shows \(standup.title) (\(standup.id)) "
          + "unlike the list"
        return
      }
    }
    let storage = store.state.storage
    if !storage.deletedElsewhere.isEmpty, store.state.alert == nil, storage.waitingAlerts.isEmpty {
      failure =
        "step \(step), after \(lastAction): a standup deleted elsewhere is kept, and the user is "
        + "not being asked about it"
      return
    }
    let isInTheWay =
      store.state.alert != nil || state.list.alert != nil || state.path.contains(where: \.hasAlert)
      || state.isRecordingAMeeting
    if !storage.waitingAlerts.isEmpty, !isInTheWay {
      failure = "step \(step), after \(lastAction): an alert waits with nothing in its way"
      return
    }
    let running = store.effectRuntime.runningCount
    mostEffectsRunning = max(mostEffectsRunning, running)
    // NB: A recorder's timer and transcription, a write, a read of changes elsewhere, a sound, a
    // dismissal: a handful at most, however many steps have passed.
    if running > 8 {
      failure = "step \(step), after \(lastAction): \(running) effects are running"
    }
  }

  /// Writes what is pending, reads what the other instance changed, and checks that the
  /// database holds what the list shows, but for the standups deleted elsewhere that the user is
  /// still to be asked about.
  mutating func checkTheDatabase(after step: Int) async {
    guard failure == nil else { return }
    await store.send(.flushPendingWrites).finish()
    await store.send(.readChangesElsewhere).finish()
    let stored = try? await elsewhere.readStandups()
    // NB: A standup deleted elsewhere stays in the list until the user answers whether to keep
    // it, which waits for a meeting being recorded to end.
    var listed = store.state.app.list.standups
    for id in store.state.storage.deletedElsewhere where stored?[id: id] == nil {
      listed.remove(id: id)
    }
    if stored != listed {
      failure =
        "step \(step): the database holds \(stored?.map(\.title) ?? []), "
        + "the list \(store.state.app.list.standups.map(\.title))"
    }
  }

  mutating func tearDown() async {
    for id in store.state.app.path.ids.reversed() {
      withIssueReporters([issues]) { _ = store.send(.app(.path(.popFrom(id: id)))) }
    }
    await store.send(.flushPendingWrites).finish()
    // NB: A write the flush cancelled ends once the database has done it, which is before the
    // flush's own write of the same change: only its last step is left to run.
    await settle()
    try? FileManager.default.removeItem(at: folder)
  }
}
