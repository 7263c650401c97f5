import Composable
import ComposableTestSupport
import ConcurrencyExtras
import IssueReporting
import PropertyBased
import Testing

/// One thing done to two sheets of the same feature.
enum SheetStep: Sendable, CustomStringConvertible {
  case present(right: Bool)
  case dismiss(right: Bool)
  case command(Step.Command, right: Bool)
  case closeFromParent(right: Bool)
  case stopAllWork

  var description: String {
    func side(_ right: Bool) -> String { right ? "right" : "left" }
    switch self {
    case .present(let right): return "present(\(side(right)))"
    case .dismiss(let right): return "dismiss(\(side(right)))"
    case .command(let command, let right): return "\(side(right)).\(command)"
    case .closeFromParent(let right): return "closeFromParent(\(side(right)))"
    case .stopAllWork: return "stopAllWork"
    }
  }
}

let sheetSteps = Gen.frequency(
  (3, Gen.bool.map { SheetStep.present(right: $0) }),
  (1, Gen.bool.map { SheetStep.dismiss(right: $0) }),
  (5, zip(Gen<Step.Command>.case, Gen.bool).map { SheetStep.command($0, right: $1) }),
  (1, Gen.bool.map { SheetStep.closeFromParent(right: $0) }),
  (1, Gen.always(SheetStep.stopAllWork))
)
.array(of: 1...200)

@MainActor
struct PresentationModelTests {
  /// How many random sequences of steps each run checks.
  static let sequenceCount = 200

  @Test(.shrinking)
  func twoSheetsAndTheirEffectsFollowTheModelAndTheReference() async {
    await propertyCheck(count: Self.sequenceCount, input: sheetSteps) { steps in
      await withSerialEffects {
        let (log, referenceLog) = (WorkLog(), WorkLog())
        let store = Store(initialState: TwinSheets.State()) {
          TwinSheets(usesReference: false)
        } withDependencies: {
          $0.workLog = log
        }
        let reference = ReferenceStore(initialState: TwinSheets.State()) {
          TwinSheets(usesReference: true)
        } withDependencies: {
          $0.workLog = referenceLog
        }
        let (issues, referenceIssues) = (IssueCollector(), IssueCollector())
        @MainActor func send(_ action: TwinSheets.Action) {
          withIssueReporters([issues]) { _ = store.send(action) }
          withIssueReporters([referenceIssues]) { reference.send(action) }
        }
        var sheets: [Bool: Model.Sheet] = [:]
        var nextLabel = 0
        var failures: [String] = []

        for step in steps where failures.isEmpty {
          let before = (issues.count, referenceIssues.count)
          let expectsIssue: Bool
          switch step {
          case .present(let right):
            send(.present(Worker.State(id: nextLabel), right: right))
            sheets[right] = Model.Sheet(label: nextLabel)
            nextLabel += 1
            expectsIssue = false
          case .dismiss(let right):
            send(right ? .right(.dismiss) : .left(.dismiss))
            expectsIssue = sheets.removeValue(forKey: right) == nil
          case .command(let command, let right):
            let action = PresentationAction<Worker.Action>.presented(command.action)
            send(right ? .right(action) : .left(action))
            expectsIssue = sheets[right] == nil
            switch command {
            case .close: sheets[right] = nil
            case .start: sheets[right]?.isWorking = true
            case .stop: sheets[right]?.isWorking = false
            }
          case .closeFromParent(let right):
            send(.close(right: right))
            sheets[right] = nil
            expectsIssue = false
          case .stopAllWork:
            send(.stopAllWorkButtonTapped)
            for side in sheets.keys { sheets[side]?.isWorking = false }
            expectsIssue = false
          }
          for _ in 0..<8 { await Task.megaYield() }

          let reported = issues.count - before.0
          failures += Harness.disagreements(
            after: step,
            store: (store.state, store.effectRuntime.runningCount, log, reported),
            reference: (
              reference.state, reference.effects.runningCount, referenceLog,
              referenceIssues.count - before.1
            )
          )
          let working = sheets.values.count(where: \.isWorking)
          let expectedKeys = 2 * working + (working > 0 ? 1 : 0)
          if reported != (expectsIssue ? 1 : 0) {
            failures.append("\(step): \(reported) issues, expected \(expectsIssue ? 1 : 0)")
          } else if store.state.left?.id != sheets[false]?.label
            || store.state.right?.id != sheets[true]?.label
          {
            failures.append(
              "\(step): the sheets are \(store.state.left?.id as Any), \(store.state.right?.id as Any)"
            )
          } else if store.effectRuntime.runningCount != working {
            failures.append(
              "\(step): \(store.effectRuntime.runningCount) effects run, \(working) working"
            )
          } else if store.effectRuntime.cancellationKeyCount != expectedKeys {
            failures.append(
              "\(step): \(store.effectRuntime.cancellationKeyCount) keys, expected \(expectedKeys)"
            )
          }
        }
        #expect(failures.isEmpty, "\(failures.first ?? "")")

        send(.close(right: false))
        send(.close(right: true))
        for _ in 0..<8 { await Task.megaYield() }
        #expect(store.effectRuntime.runningCount == 0)
        #expect(store.effectRuntime.cancellationKeyCount == 0)
        #expect(reference.effects.runningCount == 0)
      }
    }
  }
}
