/// How every module counts and lists in what it tells the user, so that a sentence reads the same
/// whichever module wrote it.
///
/// A list of the team's (standups kept apart, standups shared, changes not applied) names its
/// first few and counts the rest: a member who writes thousands of rows cannot fill the screen.
///
/// ```swift
/// Wording.counted(1, "change")  // "1 change"
/// Wording.counted(3, "change")  // "3 changes"
/// Wording.named(["Design", "Engineering", "Product", "Sales"])
/// // "“Design”, “Engineering”, “Product”, and 1 more"
/// ```
public enum Wording {
  /// The most entries of a list a sentence names before it counts the rest.
  public static let mostNamed = 3

  /// `count` and `noun`, the noun plural (an added "s") unless the count is one.
  public static func counted(_ count: Int, _ noun: String) -> String {
    count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
  }

  /// The first ``mostNamed`` of `names`, each in quotation marks, and how many more there are.
  public static func named(_ names: [String]) -> String {
    let named = names.prefix(mostNamed).map { "“\($0)”" }.joined(separator: ", ")
    let more = names.count - min(names.count, mostNamed)
    return more > 0 ? "\(named), and \(more) more" : named
  }
}
