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

  /// The most standups the report names; it counts the others.
  public static let mostTitlesNamed = 20

  /// The most characters of a title the report quotes, so that each takes at most a line of a
  /// terminal; a longer one is cut with "…".
  public static let longestTitleQuoted = 60

  /// What was done, in a sentence or two. The first ``mostTitlesNamed`` standups added or changed
  /// are named, each title cut to ``longestTitleQuoted`` characters, and the rest counted: a file
  /// can hold any number of standups, with titles of any length.
  public var description: String {
    var sentences: [String] = []
    var named = 0
    if !added.isEmpty {
      let titles = added.lazy.map(Self.quoted)
      sentences.append("Added \(Self.count(added.count))\(Self.listing(titles, named: &named)).")
    }
    if !changed.isEmpty {
      let titles = changed.lazy.map {
        "\(Self.quoted($0.title)) (\($0.parts.joined(separator: ", ")))"
      }
      sentences.append(
        "Changed \(Self.count(changed.count))\(Self.listing(titles, named: &named)).")
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

  private static func count(_ number: Int) -> String { Wording.counted(number, "standup") }

  /// `": "` and the entries, as many as are left to name of ``mostTitlesNamed``, and how many
  /// more there are; nothing when none is left to name.
  private static func listing(
    _ entries: some Collection<String>,
    named: inout Int
  ) -> String {
    let shown = Array(entries.prefix(max(mostTitlesNamed - named, 0)))
    named += shown.count
    guard !shown.isEmpty else { return "" }
    let rest = entries.count - shown.count
    return ": " + shown.joined(separator: ", ") + (rest > 0 ? ", and \(rest) more" : "")
  }

  private static func quoted(_ title: String) -> String {
    let isLong = !title.dropFirst(longestTitleQuoted).isEmpty
    return "\"" + (isLong ? String(title.prefix(longestTitleQuoted - 1)) + "…" : title) + "\""
  }
}

extension String {
  fileprivate var capitalizingFirst: String {
    prefix(1).uppercased() + dropFirst()
  }
}
