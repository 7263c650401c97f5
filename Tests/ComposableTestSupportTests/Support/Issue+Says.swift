import Testing

extension Issue {
  /// Whether the issue's message contains every one of `fragments`.
  func says(_ fragments: String...) -> Bool {
    let message = comments.map(\.rawValue).joined(separator: "\n")
    return fragments.allSatisfy { message.contains($0) }
  }
}
