import Dependencies
import IssueReporting

// A push with an ID made outside the reducer, and the issues `forEach` reports: what happened,
// in the words of the feature's author, and what to do about it.

extension _StackReducer {
  /// Pushes the element of a push action.
  ///
  /// NB: Out of ``reduce(into:action:)``, which would otherwise look up the optional's metadata
  /// on every action (`Benchmarks/instruction-counts`, element send).
  func push(_ id: StackElementID, from action: Parent.Action, state: inout Parent.State) {
    guard case .push(_, let elementState) = toStackAction.extract(from: action) else { return }
    push(elementState, id: id, onto: &state[keyPath: toStackState], action: action)
  }

  /// Pushes an element with an ID made outside the reducer: reported when the ID is in use
  /// (nothing is pushed) or, in tests, when the generator has not produced it yet.
  func push(
    _ elementState: Element.State,
    id: StackElementID,
    onto stack: inout StackState<Element.State>,
    action: Parent.Action
  ) {
    guard !stack.contains(id: id) else {
      reportDuplicatePush(id, action: action)
      return
    }
    @Dependency(\.stackElementID) var stackElementID
    if isTesting, stackElementID.peek() < id {
      reportPushAheadOfGenerator(id, next: stackElementID.peek(), action: action)
    }
    stackElementID.skip(past: id)
    stack.insert(elementState, id: id)
  }

  func reportDuplicatePush(_ id: StackElementID, action: Parent.Action) {
    location.reportIssue(
      """
      A "forEach" received a push of element \(id), but the stack already has an element with \
      that ID, so nothing was pushed.

        Action:
          \(debugCaseOutput(action))

      Push elements with IDs from the store ("makeStackElementID()") or the "stackElementID" \
      dependency, or append them to the "StackState", which generates them.
      """
    )
  }

  func reportPushAheadOfGenerator(
    _ id: StackElementID,
    next: StackElementID,
    action: Parent.Action
  ) {
    location.reportIssue(
      """
      A "forEach" received a push of element \(id), but the "stackElementID" generator has \
      not generated it yet: its next ID is \(next).

        Action:
          \(debugCaseOutput(action))

      An ID made up ahead of the generator collides with an element the reducer adds later. \
      Take IDs from the store ("makeStackElementID()") or the "stackElementID" dependency.
      """
    )
  }

  func reportMissingElement(_ id: StackElementID, action: Parent.Action) {
    location.reportIssue(
      """
      A "forEach" received an action for element \(id), but the stack has no element with that \
      ID, so only the parent ran.

        Action:
          \(debugCaseOutput(action))

      The element was probably popped before the action arrived: a view sent it after the \
      screen went away, or an effect started outside the element (in the parent, or detached \
      from its store) sent it late. Effects the element itself returns end when it leaves the \
      stack and cannot do this.
      """
    )
  }

  func reportMissingPop(_ id: StackElementID, action: Parent.Action) {
    location.reportIssue(
      """
      A "forEach" received a pop of element \(id), which is not on the stack, so nothing was \
      popped.

        Action:
          \(debugCaseOutput(action))

      The element was probably popped already: a view sent the pop twice, or after another \
      change removed the screen.
      """
    )
  }
}
