import Composable
import Foundation

/// The source text of the case key path passed to a test store's `receive`, such as
/// `\.path[id: 0].detail.delegate`.
///
/// A case key path carries no names at run time on Linux (it prints as `<computed 0x…>`
/// components), but the test's source file is on disk where the test runs and the call site is
/// known, so the failure can quote what the test wrote. `nil` when the text cannot be found.
func caseKeyPathText(passedTo function: String, at location: CodeLocation) -> String? {
  guard
    let source = try? String(
      contentsOfFile: "\(location.filePath)",
      encoding: .utf8
    )
  else { return nil }
  let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
  let lineIndex = Int(location.line) - 1
  guard lines.indices.contains(lineIndex) else { return nil }
  // A call can span lines; the key path is the first argument after the call's name.
  let text = lines[lineIndex...].prefix(8).joined(separator: "\n")
  guard let call = text.range(of: "\(function)(") else { return nil }
  var argument = text[call.upperBound...].drop { $0 == " " || $0 == "\n" }
  guard argument.first == "\\" else { return nil }
  var depth = 0
  var end = argument.startIndex
  while end < argument.endIndex {
    let character = argument[end]
    if character == "(" || character == "[" {
      depth += 1
    } else if character == ")" || character == "]" {
      if depth == 0 { break }
      depth -= 1
    } else if character == ",", depth == 0 {
      break
    }
    end = argument.index(after: end)
  }
  argument = argument[..<end]
  let keyPath = argument.filter { !$0.isWhitespace }
  return keyPath.count > 1 ? keyPath : nil
}

/// How a failure names the case key path passed to `receive`: its source text, or where it was
/// passed.
func describeCaseKeyPath(passedTo function: String, at location: CodeLocation) -> String {
  caseKeyPathText(passedTo: function, at: location)
    ?? "the case key path passed at \(location.fileID):\(location.line)"
}
