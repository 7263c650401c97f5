import AppFeature
import Benchmark
import BenchmarkFixtures
import Composable
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import Persistence
import StandupDetail
import StandupsList
import StandupsTerminal
import StorageClient
import TerminalUI

// What a user of the terminal app feels: one key through the store to the escape sequences that
// update the screen, with 1,000 standups loaded and a detail screen pushed. Against it, the same
// frame rendered and diffed with no key and no store, which is what drawing alone costs.

func appBenchmarks() {
  let count = 1000
  let size = Size(width: 80, height: 24)

  Benchmark("App.KeyToFrame/standups=\(count)", configuration: configuration()) { benchmark in
    let iterations = benchmark.scaledIterations
    await measureOnMainActor(benchmark) { measure in
      let app = sharedTerminalApp(standups: count)
      var previous = app.render(size: size)
      var isEditing = app.store.state.app.destination != nil
      measure.start()
      for _ in iterations {
        // NB: Each key goes through the store: `e` asks the detail screen to edit (the app
        // presents the form), `esc` cancels it, so every frame differs from the last.
        app.press(isEditing ? .escape : .character("e"), size: size)
        isEditing.toggle()
        let next = app.render(size: size)
        blackHole(frameUpdate(from: previous, to: next, colors: .trueColor))
        previous = next
      }
      measure.stop()
      if (app.store.state.app.destination != nil) != isEditing {
        measure.fail("The keys did not open and close the form.")
      }
    }
  }

  Benchmark("Baseline.RenderFrame/standups=\(count)", configuration: configuration()) {
    benchmark in
    let iterations = benchmark.scaledIterations
    await measureOnMainActor(benchmark) { measure in
      let app = sharedTerminalApp(standups: count)
      let view = app.view
      var detail = app.store.state
      detail.app.destination = nil
      var editing = detail
      if case .detail(let screen)? = detail.app.path.last {
        editing.app.destination = .edit(.init(standup: screen.standup))
      }
      var previous = AppView.render(detail, view, size: size, format: app.format)
      measure.start()
      for iteration in iterations {
        let next = AppView.render(
          iteration.isMultiple(of: 2) ? editing : detail, view, size: size, format: app.format)
        blackHole(frameUpdate(from: previous, to: next, colors: .trueColor))
        previous = next
      }
      measure.stop()
    }
  }
}

/// The app of ``makeTerminalApp(standups:)``, built once: building 1,000 standups costs far
/// more than the frames measured, and would leave few samples in a second.
@MainActor
private func sharedTerminalApp(standups count: Int) -> TerminalApp {
  if let app = terminalApps[count] { return app }
  let app = makeTerminalApp(standups: count)
  terminalApps[count] = app
  return app
}

@MainActor private var terminalApps: [Int: TerminalApp] = [:]

/// The terminal app with `count` standups loaded and the middle one's detail screen pushed.
@MainActor
private func makeTerminalApp(standups count: Int) -> TerminalApp {
  let standups = IdentifiedArray(
    uniqueElements: (0..<count).map { index in
      makeDetail(seed: index).standup
    })
  let transcript = TypedTranscript()
  let store = Store(
    initialState: PersistedApp.State(
      app: AppFeature.State(
        list: StandupsList.State(standups: standups),
        path: StackState([.detail(StandupDetail.State(standup: standups[count / 2]))])
      )
    )
  ) {
    PersistedApp()
  } withDependencies: {
    $0.storageClient = .inMemory(standups)
    $0.speechClient = transcript.client
    $0.uuid = .incrementing
  }
  let start = ContinuousClock.now
  let app = TerminalApp(
    store: store, transcript: transcript, format: TerminalFormat(timeZone: .gmt),
    now: { .now - start })
  return app
}
