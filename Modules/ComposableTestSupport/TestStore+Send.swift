public import CasePaths
import Composable
import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting

extension TestStore {
  /// Sends an action and asserts exactly how it changes the state.
  ///
  /// The closure receives the state as it was expected before the action; mutate it into the
  /// state you expect afterwards. Omit the closure when the action must not change the state.
  ///
  /// ```swift
  /// await store.send(.incrementButtonTapped) {
  ///   $0.count = 1
  /// }
  /// ```
  ///
  /// > Important: In an exhaustive test every action received from an effect must be asserted
  /// > before the next send.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: The effects the action started, which can be awaited or cancelled.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !isDismissed else {
      location.reportIssue(
        """
        Can't send an action to a test store that has been dismissed.

          Action:
            \(debugCaseOutput(action))

        The feature called "dismiss()" at the root of the store, so nothing can receive the \
        action, and its effects were cancelled.
        """
      )
      return TestStoreTask(rawValue: StoreTask(group: nil), progress: progress, timeout: timeout)
    }
    settleReceivedActions(before: "sending \(debugCaseOutput(action))", location: location)
    sentReduction = nil
    let stateBefore = root.state
    let task = root.send(.send(action), group: EffectGroup(label: location))
    let reduction =
      sentReduction
      ?? Reduction(
        state: stateBefore,
        generatedIDs: [],
        nextID: root.dependencies.stackElementID.peek()
      )
    expectState(reduction, toMatch: updateStateToExpectedResult, at: location)
    await settle()
    return TestStoreTask(rawValue: task, progress: progress, timeout: timeout)
  }

  /// Sends the action at a case key path whose case has no associated value, and asserts how it
  /// changes the state.
  ///
  /// ```swift
  /// await store.send(\.path[id: 0].detail.editButtonTapped) { … }
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path to the action to send.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: The effects the action started.
  @discardableResult
  public func send(
    _ actionCase: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      actionCase(),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Sends the action at a case key path with the given associated value, and asserts how it
  /// changes the state.
  ///
  /// ```swift
  /// await store.send(\.path[id: 0].detail.titleChanged, "Engineering") { … }
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path to the action to send.
  ///   - value: The associated value.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: The effects the action started.
  @discardableResult
  public func send<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      actionCase(value),
      assert: updateStateToExpectedResult,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Asserts the current state without sending an action.
  ///
  /// As in the Composable Architecture, the closure may change nothing: an assertion that only
  /// confirms the state, such as a form's state between two sends, passes when the state is as
  /// the test expects.
  ///
  /// ```swift
  /// store.assert { $0.isLoading = false }
  /// ```
  ///
  /// - Parameters:
  ///   - updateStateToExpectedResult: Turns the expected state into the current one.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func assert(
    _ updateStateToExpectedResult: (inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    settleReceivedActions(before: "asserting", location: location)
    let reduction = Reduction(
      state: root.state,
      generatedIDs: [],
      nextID: root.dependencies.stackElementID.peek()
    )
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      expectState(reduction, toMatch: update, at: location, requiringChange: false)
    }
  }

  /// Gives effects that are ready to run their turn on the main serial executor, so that work
  /// that completes without waiting (an effect that sends and returns) is done before the test
  /// goes on.
  func settle() async {
    await Task.megaYield()
  }

  /// Deals with the received actions the test has not asserted before it goes on to `step`:
  /// an issue in an exhaustive test, their state adopted in a non-exhaustive one.
  private func settleReceivedActions(before step: String, location: CodeLocation) {
    settleReceivedActions(
      exhaustiveIssue: """
        Must handle \(receivedActions.count) received \
        action\(receivedActions.count == 1 ? "" : "s") before \(step):

        \(describeReceivedActions())
        """,
      location: location
    )
  }

  /// Deals with the received actions the test has not asserted: `exhaustiveIssue` in an
  /// exhaustive test, their state adopted in a non-exhaustive one (shown as skipped when asked).
  func settleReceivedActions(
    exhaustiveIssue: @autoclosure () -> String,
    location: CodeLocation
  ) {
    guard let last = receivedActions.last else { return }
    switch exhaustivity {
    case .on:
      location.reportIssue(exhaustiveIssue())
    case .off(let showSkippedAssertions):
      if showSkippedAssertions {
        withExpectedIssue {
          location.reportIssue(
            """
            Skipped receiving \(receivedActions.count) \
            action\(receivedActions.count == 1 ? "" : "s"):

            \(describeReceivedActions())
            """
          )
        }
      }
    }
    adopt(last.reduction.state)
    receivedActions.removeAll()
  }

  /// Takes `state` as what the test has seen and expects, without asserting it.
  func adopt(_ state: State) {
    expectedState = state
    assertedState = state
  }

  /// Compares the state an action left with what the test expects, and adopts the actual state
  /// as the new baseline either way so that one mistake is reported once.
  ///
  /// - Parameter requiringChange: Whether a closure that changes nothing is reported (after a
  ///   send or a receive, where it should be left out); `assert` confirms state without one.
  func expectState(
    _ reduction: Reduction,
    toMatch updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: CodeLocation,
    requiringChange: Bool = true
  ) {
    let actualState = reduction.state
    defer { adopt(actualState) }
    switch exhaustivity {
    case .on:
      var expected = expectedState
      guard apply(updateStateToExpectedResult, to: &expected, replaying: reduction, at: location)
      else { return }
      if expected != actualState {
        reportStateMismatch(
          expected: expected,
          actual: actualState,
          changeExpected: updateStateToExpectedResult != nil,
          at: location
        )
      } else if requiringChange, updateStateToExpectedResult != nil, expected == expectedState {
        location.reportIssue(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to \
          state is expected, omit the trailing closure.
          """
        )
      }
    case .off(let showSkippedAssertions):
      var expectedGivenActual = actualState
      guard
        apply(
          updateStateToExpectedResult,
          to: &expectedGivenActual,
          replaying: reduction,
          at: location
        )
      else { return }
      if expectedGivenActual != actualState {
        reportStateMismatch(
          expected: expectedGivenActual,
          actual: actualState,
          changeExpected: true,
          at: location
        )
        return
      }
      guard showSkippedAssertions else { return }
      var expectedGivenPrevious = expectedState
      guard
        apply(
          updateStateToExpectedResult,
          to: &expectedGivenPrevious,
          replaying: reduction,
          at: location
        )
      else { return }
      if expectedGivenPrevious != actualState {
        withExpectedIssue {
          location.reportIssue(
            """
            Skipped assertions: the state changed in ways the test did not assert:

            \((diff(expectedGivenPrevious, actualState, format: .proportional) ?? "").indented(by: 2))

            (Expected: −, Actual: +)
            """
          )
        }
      }
    }
  }

  /// Runs an assertion closure on `state`, with the stack element IDs the reducer generated
  /// replayed so that elements the closure creates get the same ones, and with ``state``
  /// reading the value the closure was given.
  private func apply(
    _ update: ((inout State) throws -> Void)?,
    to state: inout State,
    replaying reduction: Reduction,
    at location: CodeLocation
  ) -> Bool {
    guard let update else { return true }
    stateInAssertion = state
    defer { stateInAssertion = nil }
    do {
      try withDependencies {
        $0.stackElementID = .replaying(reduction.generatedIDs, thenFrom: reduction.nextID)
      } operation: {
        try update(&state)
      }
      return true
    } catch {
      location.reportIssue("The assertion closure threw an error: \(error)")
      return false
    }
  }

  private func reportStateMismatch(
    expected: State,
    actual: State,
    changeExpected: Bool,
    at location: CodeLocation
  ) {
    let difference = (diff(expected, actual, format: .proportional) ?? "").indented(by: 2)
    let headline =
      changeExpected
      ? "A state change does not match expectation:"
      : "State was not expected to change, but a change occurred:"
    location.reportIssue(
      """
      \(headline)

      \(difference)

      (Expected: −, Actual: +)
      """
    )
  }
}
