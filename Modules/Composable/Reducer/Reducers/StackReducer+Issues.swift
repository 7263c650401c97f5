import IssueReporting

// The issues `forEach` reports: what happened, in the words of the feature's author, and what to
// do about it.

extension _StackReducer {
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
