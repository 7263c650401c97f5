import CasePaths

/// What makes the child of an `ifLet` the same child over time — a presentation, or plain
/// optional state: its type, the enum case it is in (for a `@CasePathable` enum of
/// destinations), and its `id` when it is `Identifiable`.
///
/// When the identity changes, `ifLet` treats the old child as gone and the new one as new, and
/// cancels the old one's effects. Editing a child in place keeps its identity. Working it out
/// takes reflection, so ``PresentationState`` works it out when its value is written and keeps
/// it; plain optional state cannot.
package struct ChildIdentity: Hashable, @unchecked Sendable {
  // `@unchecked`: the key path is immutable, and `id` is only ever hashed and compared.
  let type: ObjectIdentifier
  let caseKeyPath: AnyKeyPath?
  let id: AnyHashable?
  /// The action type of an alert or dialog being presented (directly or as the current case
  /// of a destination enum): the actions that clear it when they arrive.
  package let ephemeralActionType: Any.Type?

  package init(of value: some Any) {
    ChildIdentityCounting.count?.increment()
    self.type = ObjectIdentifier(Swift.type(of: value))
    let presented = presentedCase(of: value)
    self.caseKeyPath = presented?.keyPath
    let payload = presented?.payload ?? value
    self.id = identity(of: payload)
    self.ephemeralActionType =
      (value as? any _EphemeralState).map { Swift.type(of: $0).actionType }
      ?? (payload as? any _EphemeralState).map { Swift.type(of: $0).actionType }
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.type == rhs.type && lhs.caseKeyPath == rhs.caseKeyPath && lhs.id == rhs.id
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(caseKeyPath)
    hasher.combine(id)
  }

  /// Whether `action` is one of the presented alert's or dialog's own actions: the action
  /// itself, or the payload of the destination action's case, is of its action type.
  package func isEphemeralAction(_ action: some Any) -> Bool {
    guard let ephemeralActionType else { return false }
    if Swift.type(of: action as Any) == ephemeralActionType { return true }
    let mirror = Mirror(reflecting: action)
    guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else {
      return false
    }
    return Swift.type(of: payload) == ephemeralActionType
  }
}

/// State that is dismissed as soon as one of its own actions arrives: alerts and confirmation
/// dialogs.
public protocol _EphemeralState {
  /// The actions of the state's buttons.
  associatedtype Action
}

extension _EphemeralState {
  static var actionType: Any.Type { Action.self }
}

private func presentedCase(of value: some Any) -> (keyPath: AnyKeyPath, payload: Any)? {
  guard let value = value as? any CasePathable else { return nil }
  return reflectCase(of: value)
}

private func reflectCase<Root: CasePathable>(of root: Root) -> (
  keyPath: AnyKeyPath, payload: Any
)? {
  guard let casePaths = Root.allCasePaths as? any CasePathReflectable<Root> else { return nil }
  let keyPath = casePaths[root]
  guard let payload = root[case: keyPath] else { return nil }
  return (keyPath, payload)
}

private func identity(of value: Any) -> AnyHashable? {
  guard let value = value as? any Identifiable else { return nil }
  return identifier(of: value)
}

private func identifier<Value: Identifiable>(of value: Value) -> AnyHashable {
  AnyHashable(value.id)
}
