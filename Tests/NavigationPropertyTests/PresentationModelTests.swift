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
  @Test(.shrinking)
  func twoSheetsAndTheirEffectsFollowTheModel() async {
    await propertyCheck(count: 60, input: sheetSteps) { steps in
      await withSerialEffects {
        let store = Store(initialState: TwinSheets.State()) { TwinSheets() }
        let issues = IssueCollector()
        var sheets: [Bool: Model.Sheet] = [:]
        var nextLabel = 0
        var failure: String?

        for step in steps where failure == nil {
          let before = issues.count
          let expectsIssue = withIssueReporters([issues]) { () -> Bool in
            switch step {
            case .present(let right):
              store.send(.present(Worker.State(id: nextLabel), right: right))
              sheets[right] = Model.Sheet(label: nextLabel)
              nextLabel += 1
              return false
            case .dismiss(let right):
              store.send(right ? .right(.dismiss) : .left(.dismiss))
              return sheets.removeValue(forKey: right) == nil
            case .command(let command, let right):
              let action = PresentationAction<Worker.Action>.presented(command.action)
              store.send(right ? .right(action) : .left(action))
              guard sheets[right] != nil else { return true }
              switch command {
              case .close: sheets[right] = nil
              case .start: sheets[right]?.isWorking = true
              case .stop: sheets[right]?.isWorking = false
              }
              return false
            case .closeFromParent(let right):
              store.send(.close(right: right))
              sheets[right] = nil
              return false
            case .stopAllWork:
              store.send(.stopAllWorkButtonTapped)
              for side in sheets.keys { sheets[side]?.isWorking = false }
              return false
            }
          }
          for _ in 0..<8 { await Task.megaYield() }

          let working = sheets.values.count(where: \.isWorking)
          let expectedKeys = 3 * working + (working > 0 ? 1 : 0)
          let reported = issues.count - before
          if reported != (expectsIssue ? 1 : 0) {
            failure = "\(step): \(reported) issues, expected \(expectsIssue ? 1 : 0)"
          } else if store.state.left?.id != sheets[false]?.label
            || store.state.right?.id != sheets[true]?.label
          {
            failure =
              "\(step): the sheets are \(store.state.left?.id as Any), \(store.state.right?.id as Any)"
          } else if store.effectRuntime.runningCount != working {
            failure = "\(step): \(store.effectRuntime.runningCount) effects run, \(working) working"
          } else if store.effectRuntime.cancellationKeyCount != expectedKeys {
            failure =
              "\(step): \(store.effectRuntime.cancellationKeyCount) keys, expected \(expectedKeys)"
          }
        }
        #expect(failure == nil, "\(failure ?? "")")

        store.send(.close(right: false))
        store.send(.close(right: true))
        for _ in 0..<8 { await Task.megaYield() }
        #expect(store.effectRuntime.runningCount == 0)
        #expect(store.effectRuntime.cancellationKeyCount == 0)
      }
    }
  }
}
