extension Standup {
  /// The title as people read it: on one line, and never blank.
  ///
  /// A title can hold whatever an outside edit of the data file put there, and every place
  /// that shows one (a list row, a breadcrumb, an alert, a message on the command line) needs
  /// it on one line. Tabs and line breaks become spaces, and a title that is empty or only
  /// whitespace reads "Untitled". The stored title is left as it is.
  ///
  /// ```swift
  /// var standup = Standup(id: Standup.ID(UUID()), title: "Weekly\tsync")
  /// standup.displayTitle  // "Weekly sync"
  /// standup.title = "  "
  /// standup.displayTitle  // "Untitled"
  /// ```
  ///
  /// > Important: This reads the whole title, which can be megabytes long. To show or quote one,
  /// > use ``displayTitle(maxLength:)``.
  public var displayTitle: String {
    let oneLine = String(title.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    return oneLine.allSatisfy(\.isWhitespace) ? "Untitled" : oneLine
  }

  /// ``displayTitle`` in at most `maxLength` characters: when it is longer, its start and "…".
  ///
  /// For anything that shows or quotes a title, which costs the same however long the title:
  /// this reads the title only as far as `maxLength` characters, and through any blank run at its
  /// start (to tell a blank title from one that only starts blank).
  ///
  /// ```swift
  /// standup.title = "Weekly\tsync"
  /// standup.displayTitle(maxLength: 8)  // "Weekly …"
  /// ```
  ///
  /// - Parameter maxLength: The most characters wanted, at least 1.
  public func displayTitle(maxLength: Int) -> String {
    let oneLine = title.lazy.map { $0.isNewline || $0 == "\t" ? " " : $0 }
    guard oneLine.contains(where: { !$0.isWhitespace }) else { return "Untitled" }
    let start = Array(oneLine.prefix(maxLength + 1))
    guard start.count > maxLength else { return String(start) }
    return String(start.prefix(max(maxLength - 1, 0))) + "…"
  }
}
