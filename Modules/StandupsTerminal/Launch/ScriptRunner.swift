import AppFeature
import Clocks
import Composable
import ConcurrencyExtras
import TerminalUI

/// Runs a ``Script`` against a ``TerminalApp`` whose clock is a `TestClock`: `wait` advances the
/// clock, so a six-minute meeting runs in milliseconds and the output is the same every time.
@MainActor
struct ScriptRunner {
  let app: TerminalApp
  let clock: TestClock<Duration>
  /// This machine's team, when it has joined one, shown as the live app shows it.
  let team: TeamOnScreen?
  let output: @MainActor (String) -> Void

  func run(_ script: Script) async {
    // NB: One thread for every effect makes each run of a script the same: effects interleave
    // in one order, and `settle` knows when they have all had their turn.
    await withSerialEffects {
      app.start()
      await settle()
      for line in script.commands {
        if app.isQuitRequested, await app.mayQuit() { break }
        await run(line.command)
      }
      await app.flush()
    }
  }

  private func run(_ command: Script.Command) async {
    let size = Size(width: 80, height: 24)
    switch command {
    case .key(let key):
      app.press(key, size: size)
    case .type(let text):
      for character in text {
        app.press(.character(character), size: size)
        await settle()
      }
    case .burst(let text):
      for character in text {
        app.press(.character(character), size: size)
      }
    case .wait(let duration):
      // NB: The clock jumps from one scheduled wake-up to the next, and lets the effects of
      // each run before the next (on the one thread every effect runs on here).
      await clock.advance(by: duration)
      // NB: As the live app reads them every two seconds, a script reads after each wait for what
      // other instances committed meanwhile, and what they did to the team's standups (a
      // `standups sync` or `share` run beside it).
      app.readChangesElsewhere()
      await team?.readAgain(on: app)
    case .screen(let size):
      output(app.render(size: size).plainText + "\n")
    }
    await settle()
  }

  /// Lets effects run until the store has been quiet for a few turns, once the user's answers
  /// to the team are written: those go to the database beside the store, whose quiet turns do
  /// not count them.
  private func settle() async {
    await app.finishTeamAnswers()
    var quietTurns = 0
    var changes = app.changeCount
    for _ in 0..<1_000 where quietTurns < 3 {
      await Task.megaYield()
      quietTurns = app.changeCount == changes ? quietTurns + 1 : 0
      changes = app.changeCount
    }
  }
}
