import Foundation

/// libpq's password file (`~/.pgpass`): lines `host:port:database:user:password`.
///
/// Each of the first four fields is a literal or `*`, which matches anything; `\:` and `\\`
/// stand for `:` and `\`; lines starting with `#` are comments; the first matching line wins.
/// A file that gives its group or others any access is refused, as libpq ignores it.
struct PasswordFile {
  let lines: [Substring]

  /// Reads the file at `path`: `nil` if there is none or it is not a plain file.
  init?(path: String) throws(ConnectionProblem) {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      let contents = try? String(contentsOfFile: path, encoding: .utf8)
    else { return nil }
    if status.st_mode & 0o077 != 0 {
      throw .passwordFileOpenToOthers(path)
    }
    lines = contents.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
  }

  /// The password of the first line matching the connection, if any.
  func password(host: String, port: String, database: String, user: String) -> String? {
    let wanted = [host, port, database, user]
    for line in lines where !line.hasPrefix("#") {
      let fields = Self.fields(line)
      guard fields.count >= 5 else { continue }
      let matches = zip(fields.prefix(4), wanted).allSatisfy { field, value in
        field.isWildcard || field.text == value
      }
      if matches { return fields[4].text }
    }
    return nil
  }

  private struct Field {
    var text = ""
    var isWildcard = false
  }

  /// Splits a line at unescaped colons, taking `\x` as `x`; a field that is a lone unescaped
  /// `*` is a wildcard (`\*` is a star).
  private static func fields(_ line: Substring) -> [Field] {
    var fields: [Field] = []
    var current = Field()
    var escaped = false
    var sawEscape = false
    for character in line {
      if escaped {
        current.text.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
        sawEscape = true
      } else if character == ":" {
        current.isWildcard = current.text == "*" && !sawEscape
        fields.append(current)
        current = Field()
        sawEscape = false
      } else {
        current.text.append(character)
      }
    }
    // NB: libpq keeps a backslash that ends the line.
    if escaped { current.text.append("\\") }
    current.isWildcard = current.text == "*" && !sawEscape
    fields.append(current)
    return fields
  }
}
