import Composable
import ComposableTestSupport
import ConcurrencyExtras
import IssueReporting
import PropertyBased
import Testing

extension Step.Command {
  var action: Worker.Action {
    switch self {
    case .close: .closeButtonTapped
    case .start: .startButtonTapped
    case .stop: .stopButtonTapped
    }
  }
}

/// The steps a user, a view layer and a parent take, with more of the common ones.
let steps = {
  let target = Gen.oneOf(
    Gen.int(in: 0...9).map(Step.Target.onStack),
    Gen.int(in: 0...3).map(Step.Target.missing)
  )
  let command = Gen<Step.Command>.case
  return Gen.frequency(
    (4, Gen.bool.map(Step.push)),
    (2, Gen.bool.map(Step.viewPush)),
    (1, Gen.int(in: 0...9).map(Step.viewPushOfAnIDInUse)),
    (2, target.map(Step.popFrom)),
    (6, zip(target, command).map(Step.element)),
    (1, target.map(Step.removeElement)),
    (1, target.map(Step.replaceElement)),
    (1, Gen.int(in: 0...3).map { Step.replacePath(count: $0) }),
    (2, Gen.always(Step.present)),
    (1, Gen.always(Step.dismissSheet)),
    (3, command.map(Step.sheet)),
    (1, Gen.always(Step.closeSheetFromParent)),
    (1, Gen.always(Step.stopAllWork))
  )
  .array(of: 1...200)
}()

@MainActor
struct StackModelTests {
  /// How many random sequences of steps each run checks.
  static let sequenceCount = 200

  @Test(.shrinking)
  func theStackAndItsEffectsFollowTheModelAndTheReference() async {
    await propertyCheck(count: Self.sequenceCount, input: steps) { steps in
      await withSerialEffects {
        var harness = Harness()
        var failures: [String] = []
        for step in steps where failures.isEmpty {
          failures += await harness.apply(step)
        }
        #expect(failures.isEmpty, "\(failures.first ?? "")")

        harness.send(.replacePath([]))
        harness.send(.closeSheetButtonTapped)
        await harness.settle()
        #expect(harness.store.effectRuntime.runningCount == 0)
        #expect(harness.store.effectRuntime.cancellationKeyCount == 0)
        #expect(harness.reference.effects.runningCount == 0)
      }
    }
  }
}
