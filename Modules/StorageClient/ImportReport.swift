public import Models

/// What bringing standups in from a file did.
public struct ImportReport: Equatable, Sendable, CustomStringConvertible {
  /// The file the standups came from.
  public var path: String
  /// The titles of the standups added.
  public var added: [String]
  /// The standups that were there already and changed.
  public var changed: [ChangedStandup]
  /// How many standups were there already, the same.
  public var unchanged: Int
  /// The titles of standups the database held in a form this release cannot read, which the
  /// file's copies replaced.
  public var replacedUnreadable: [String] = []
  /// The standups added or changed.
  public var standupIDs: [Standup.ID] = []

  /// Creates a report.
  public init(
    path: String,
    added: [String] = [],
    changed: [ChangedStandup] = [],
    unchanged: Int = 0
  ) {
    self.path = path
    self.added = added
    self.changed = changed
    self.unchanged = unchanged
  }

  /// A standup that was there already and changed.
  public struct ChangedStandup: Equatable, Sendable {
    /// Its title, after the change.
    public var title: String
    /// What changed, in words: `["title", "a meeting added"]`.
    public var parts: [String]

    /// Describes a changed standup.
    public init(title: String, parts: [String]) {
      self.title = title
      self.parts = parts
    }
  }

  /// What was done, in a sentence or two.
  public var description: String {
    var sentences: [String] = []
    if !added.isEmpty {
      sentences.append(
        "Added \(Self.count(added.count)): \(added.map(Self.quoted).joined(separator: ", ")).")
    }
    if !changed.isEmpty {
      let list = changed.map { "\(Self.quoted($0.title)) (\($0.parts.joined(separator: ", ")))" }
      sentences.append("Changed \(Self.count(changed.count)): \(list.joined(separator: ", ")).")
    }
    if unchanged > 0 {
      sentences.append("\(Self.count(unchanged).capitalizingFirst) already there, unchanged.")
    }
    if !replacedUnreadable.isEmpty {
      sentences.append(
        "Replaced \(Self.count(replacedUnreadable.count)) the database held in a form this "
          + "release cannot read: \(replacedUnreadable.map(Self.quoted).joined(separator: ", ")).")
    }
    return sentences.isEmpty ? "The file holds no standups." : sentences.joined(separator: " ")
  }

  private static func count(_ number: Int) -> String {
    number == 1 ? "1 standup" : "\(number) standups"
  }

  private static func quoted(_ title: String) -> String {
    "\"\(title)\""
  }
}

extension String {
  fileprivate var capitalizingFirst: String {
    prefix(1).uppercased() + dropFirst()
  }
}
