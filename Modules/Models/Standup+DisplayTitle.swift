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
  public var displayTitle: String {
    let oneLine = String(title.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    return oneLine.allSatisfy(\.isWhitespace) ? "Untitled" : oneLine
  }
}
