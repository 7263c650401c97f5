/// A one-line description of an action's case path, such as
/// `AppFeature.Action.path(.element(id: #1, action: .detail(.delegate(.startMeeting))))`.
///
/// Issue messages use it to name an action without dumping every payload.
package func debugCaseOutput(_ value: Any) -> String {
  guard Mirror(reflecting: value).displayStyle == .enum else {
    return payloadOutput(value)
  }
  return "\(typeName(type(of: value)))\(caseOutput(value))"
}

/// The name of a type without its module, such as `AppFeature.Action`.
package func typeName(_ type: Any.Type) -> String {
  let name = String(reflecting: type)
  guard let dot = name.firstIndex(of: ".") else { return name }
  return String(name[name.index(after: dot)...])
}

private func caseOutput(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    guard let child = mirror.children.first else { return ".\(value)" }
    let payload = payloadOutput(child.value)
    return ".\(child.label ?? "")(\(payload))"
  default:
    return ""
  }
}

private func payloadOutput(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    return caseOutput(value)
  case .tuple:
    return mirror.children
      .map { child in
        let output = payloadOutput(child.value)
        guard let label = child.label, !label.hasPrefix(".") else { return output }
        return "\(label): \(output)"
      }
      .joined(separator: ", ")
  default:
    let description = String(reflecting: value)
    return description.count <= 40 && !description.contains("\n") ? description : "…"
  }
}
