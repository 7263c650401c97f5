public import CasePaths

/// An action of presented state run by
/// ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``: an action of the
/// presented feature, or the request to dismiss it.
///
/// ```swift
/// enum Action {
///   case destination(PresentationAction<Destination.Action>)
/// }
///
/// case .destination(.presented(.alert(.confirmDeletion))):
///   return .send(.delegate(.deleteStandup(state.standup.id)))
/// ```
@CasePathable
public enum PresentationAction<Action> {
  /// Dismisses what is presented. The parent sees the state once more before it is cleared.
  case dismiss

  /// An action of the presented feature.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
