import CasePaths

/// What makes a presentation the same presentation over time: the presented type, the enum case
/// it is in (for a `@CasePathable` destination enum), and its `id` when it is `Identifiable`.
///
/// When the identity changes, ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``
/// treats the old presentation as dismissed and the new one as presented, and cancels the old
/// one's effects. Editing a presented feature in place keeps its identity.
struct PresentationIdentity: Hashable, @unchecked Sendable {
  // NB: The parts are immutable values that are only hashed and compared.
  let type: ObjectIdentifier
  let caseKeyPath: AnyKeyPath?
  let id: AnyHashable?

  init(of value: some Any) {
    self.type = ObjectIdentifier(Swift.type(of: value))
    let casePath = presentedCase(of: value)
    self.caseKeyPath = casePath?.keyPath
    self.id = identity(of: casePath?.payload ?? value)
  }
}

/// Whether presented state disappears by itself once any of its buttons is tapped: alerts and
/// confirmation dialogs, directly or as the payload of a destination enum case.
func isEphemeral(_ value: some Any) -> Bool {
  if value is any _EphemeralState { return true }
  return presentedCase(of: value)?.payload is any _EphemeralState
}

/// State that is dismissed as soon as it sends an action.
public protocol _EphemeralState {}

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
