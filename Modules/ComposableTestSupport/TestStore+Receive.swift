public import CasePaths
import Composable
import CustomDump
import IssueReporting

extension TestStore {
  /// Asserts that an effect sent an action equal to `expectedAction`, and how it changed the
  /// state.
  ///
  /// Waits for the action if it has not arrived yet, until an effect sends it or no effect is
  /// running any more, when it can never arrive.
  ///
  /// ```swift
  /// await store.receive(.timerTick) { $0.secondsElapsed = 1 }
  /// ```
  ///
  /// - Parameters:
  ///   - expectedAction: The action the effect must have sent.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive(
    _ expectedAction: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receiveAction(
      matching: { $0 == expectedAction },
      expected: String(customDumping: expectedAction),
      mismatch: { received in
        """
        Received unexpected action:

        \((diff(expectedAction, received, format: .proportional) ?? "").indented(by: 2))

        (Expected: −, Received: +)
        """
      },
      assert: updateStateToExpectedResult,
      at: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action in the case named by a case key path, and how it
  /// changed the state.
  ///
  /// ```swift
  /// await store.receive(\.child.delegate.save) { $0.isSaving = false }
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path to the expected action's case, possibly nested.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let name = describeCaseKeyPath(passedTo: "receive", at: location)
    await receiveAction(
      matching: { casePath.extract(from: $0) != nil },
      expected: "matching \(name)",
      mismatch: { unexpectedActionMessage(expected: name, received: $0) },
      assert: updateStateToExpectedResult,
      at: location
    )
  }

  /// Asserts that an effect sent an action in the case named by a case key path with the given
  /// associated value, and how it changed the state.
  ///
  /// ```swift
  /// await store.receive(\.speechResult, "Hello")
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: A case key path to the expected action's case.
  ///   - value: The expected associated value.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let casePath = AnyCasePath(actionCase)
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let name = describeCaseKeyPath(passedTo: "receive", at: location)
    await receiveAction(
      matching: { casePath.extract(from: $0) == value },
      expected: "matching \(name) with \(String(customDumping: value))",
      mismatch: { received in
        guard let receivedValue = casePath.extract(from: received) else {
          return unexpectedActionMessage(expected: name, received: received)
        }
        return """
          Received unexpected action value:

          \((diff(value, receivedValue, format: .proportional) ?? "").indented(by: 2))

          (Expected: −, Received: +)
          """
      },
      assert: updateStateToExpectedResult,
      at: location
    )
  }

  /// Asserts that an effect sent an action for which `isMatching` returns `true`, and how it
  /// changed the state.
  ///
  /// ```swift
  /// await store.receive({ if case .loaded(.success) = $0 { true } else { false } })
  /// ```
  ///
  /// - Parameters:
  ///   - isMatching: Whether a received action is the expected one.
  ///   - updateStateToExpectedResult: Turns the expected state before the action into the
  ///     expected state after it.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive(
    _ isMatching: (Action) -> Bool,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      expected: "matching the predicate",
      mismatch: { received in
        """
        Received an action that does not match the predicate:

          \(debugCaseOutput(received))
        """
      },
      assert: updateStateToExpectedResult,
      at: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private func unexpectedActionMessage(expected name: String, received: Action) -> String {
    """
    Received unexpected action:

      Expected: an action matching \(name)
      Received: \(debugCaseOutput(received))
    """
  }

  private func receiveAction(
    matching isMatching: (Action) -> Bool,
    expected: String,
    mismatch: (Action) -> String,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: CodeLocation
  ) async {
    await takeReceivedAction(
      matching: isMatching,
      expected: expected,
      mismatch: mismatch,
      assert: updateStateToExpectedResult,
      at: location
    )
    await settle()
  }

  private func takeReceivedAction(
    matching isMatching: (Action) -> Bool,
    expected: String,
    mismatch: (Action) -> String,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: CodeLocation
  ) async {
    let exhaustivity = self.exhaustivity
    let outcome = await progress.wait(
      until: {
        let arrived =
          exhaustivity == .on
          ? !receivedActions.isEmpty
          : receivedActions.contains { isMatching($0.action) }
        return arrived || root.runtime.runningCount == 0
      },
      atMost: timeout
    )
    let reason =
      switch outcome {
      case .happened: "no effect that could send it is still running"
      case .timedOut: "effects were still running after \(timeout)"
      case .cancelled: "the test was cancelled while effects were still running"
      }

    switch exhaustivity {
    case .on:
      guard !receivedActions.isEmpty else {
        location.reportIssue(
          "Expected to receive an action \(expected), but received none: \(reason)."
        )
        return
      }
      let (action, reduction) = receivedActions.removeFirst()
      if !isMatching(action) {
        location.reportIssue(mismatch(action))
      }
      expectState(reduction, toMatch: updateStateToExpectedResult, at: location)

    case .off(let showSkippedAssertions):
      guard let index = receivedActions.firstIndex(where: { isMatching($0.action) }) else {
        location.reportIssue(
          "Expected to receive an action \(expected), but received none: \(reason)."
        )
        return
      }
      if index > 0 {
        if showSkippedAssertions {
          let skipped = receivedActions[..<index]
            .map { String(customDumping: $0.action).indented(by: 2) }
            .joined(separator: "\n")
          withExpectedIssue {
            location.reportIssue(
              """
              Skipped receiving \(index) action\(index == 1 ? "" : "s"):

              \(skipped)
              """
            )
          }
        }
        adopt(receivedActions[index - 1].reduction.state)
      }
      let reduction = receivedActions[index].reduction
      receivedActions.removeFirst(index + 1)
      expectState(reduction, toMatch: updateStateToExpectedResult, at: location)
    }
  }
}
