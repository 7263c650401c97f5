/// An action of a ``TestStore``'s underlying store, tagged with where it came from.
enum TestAction<Action: Sendable>: Sendable {
  /// Sent by the test.
  case send(Action)
  /// Sent by an effect; the test must receive it.
  case receive(Action)

  var action: Action {
    switch self {
    case .send(let action), .receive(let action):
      return action
    }
  }
}
