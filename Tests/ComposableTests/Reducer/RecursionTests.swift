import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

/// A screen that pushes more of itself and presents itself in a sheet, as a file browser opens
/// folders inside folders.
struct Folder: Reducer {
  struct State: Equatable, Sendable {
    var name: String
    var path = StackState<State>()
    @PresentationState var preview: State?
    var seconds = 0
  }

  @CasePathable
  indirect enum Action: Equatable, Sendable {
    case closeButtonTapped
    case openButtonTapped(String)
    case path(StackAction<State, Action>)
    case preview(PresentationAction<Action>)
    case previewButtonTapped(String)
    case startTimerButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .closeButtonTapped:
        return .run { [dismiss] _ in await dismiss() }
      case .openButtonTapped(let name):
        state.path.append(State(name: name))
        return .none
      case .path, .preview:
        return .none
      case .previewButtonTapped(let name):
        state.preview = State(name: name)
        return .none
      case .startTimerButtonTapped:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
      case .tick:
        state.seconds += 1
        return .none
      }
    }
    .ifLet(\.$preview, action: \.preview) { Folder() }
    .forEach(\.path, action: \.path) { Folder() }
  }
}

@MainActor
struct RecursionTests {
  @Test func aFeaturePushesAndPresentsItselfAtAnyDepth() async {
    let clock = TestClock()
    let store = TestStore(initialState: Folder.State(name: "root")) {
      Folder()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.openButtonTapped("a")) { $0.path.append(Folder.State(name: "a")) }
    await store.send(\.path[id: 0].openButtonTapped, "b") {
      $0.path[id: 0]?.path.append(Folder.State(name: "b"))
    }
    await store.send(\.path[id: 0].path[id: 1].previewButtonTapped, "c") {
      $0.path[id: 0]?.path[id: 1]?.preview = Folder.State(name: "c")
    }
    await store.send(\.path[id: 0].path[id: 1].preview.presented.startTimerButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].path[id: 1].preview.presented.tick) {
      $0.path[id: 0]?.path[id: 1]?.preview?.seconds = 1
    }
    await store.send(\.path[id: 0].path[id: 1].preview.presented.closeButtonTapped)
    await store.receive(\.path[id: 0].path[id: 1].preview.dismiss) {
      $0.path[id: 0]?.path[id: 1]?.preview = nil
    }
    await clock.advance(by: .seconds(5))
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    await store.expectNothingLeftRunning()
  }
}
