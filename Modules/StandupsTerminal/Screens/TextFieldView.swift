import TerminalUI

/// A one-line text field: the part of the text around the cursor, with the cursor shown as a
/// reversed cell when the field has focus.
enum TextFieldView {
  static func draw(
    _ text: String,
    editor: LineEditor,
    isFocused: Bool,
    placeholder: String = "",
    in field: Rect,
    on canvas: inout Canvas
  ) {
    guard field.size.width > 0, field.size.height > 0 else { return }
    guard isFocused else {
      let shown = text.isEmpty ? placeholder : text
      canvas.text(
        shown.truncated(toWidth: field.size.width), at: field.origin,
        style: text.isEmpty ? Palette.label : .plain, clip: field)
      return
    }
    canvas.fill(field, style: Palette.field)
    let (shown, cursorColumn) = editor.visible(text, width: field.size.width)
    canvas.text(shown, at: field.origin, style: Palette.field, clip: field)
    let cursor = Point(column: field.minColumn + cursorColumn, row: field.minRow)
    if field.contains(cursor) {
      let under = canvas[row: cursor.row, column: cursor.column].text
      canvas.text(
        under.isEmpty ? " " : under, at: cursor, style: Palette.cursor, clip: field)
    }
  }
}
