public import CasePaths

/// An action of a navigation stack run by
/// ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
///
/// A root feature embeds it as one case of its action, and reacts to its elements' delegate
/// actions through it:
///
/// ```swift
/// enum Action {
///   case path(StackAction<Path.State, Path.Action>)
/// }
///
/// case .path(.element(id: _, action: .detail(.delegate(.startMeeting(let standup))))):
///   state.path.append(.record(RecordMeeting.State(standup: standup)))
///   return .none
/// ```
///
/// Case key paths reach into an element by ID: `\.path[id: 0].detail.delegate.startMeeting`.
@CasePathable
public enum StackAction<State, Action> {
  /// An action of the element with the given ID.
  indirect case element(id: StackElementID, action: Action)

  /// Pops the element with the given ID and every element above it.
  ///
  /// The parent reducer runs first and can still read the elements being popped.
  case popFrom(id: StackElementID)

  /// Pushes an element with an ID made outside the reducer, by a view layer for example.
  ///
  /// Take the ID from ``Store/makeStackElementID()``, so that it never collides with one the
  /// reducer generates. A push of an ID already on the stack is reported and ignored.
  case push(id: StackElementID, state: State)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension Case {
  /// A case key path to the action of the stack element with the given ID.
  ///
  /// ```swift
  /// await store.receive(\.path[id: 0].detail.delegate.startMeeting)
  /// ```
  public subscript<ElementState, ElementAction>(
    id id: StackElementID
  ) -> Case<ElementAction> where Value == StackAction<ElementState, ElementAction> {
    Case<ElementAction>(
      embed: { action in self._embed(.element(id: id, action: action)) },
      extract: { (root: Any) in
        guard
          case .element(id, let action) = self._extract(from: root)
        else { return nil }
        return action
      }
    )
  }
}
