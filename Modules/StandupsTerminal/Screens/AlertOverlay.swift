import Composable
import Foundation
import Persistence
import TerminalUI

/// An alert as the terminal shows it: a box centred over the screen with the title, the message
/// and a row of buttons. Arrows and Tab move between the buttons, Enter presses one, each
/// button's underlined letter presses it directly, and Esc cancels.
///
/// The overlay works for the alert of any feature: ``PresentedAlert`` erases its action type,
/// keeping how to send a button's press back to the feature that owns the alert.
struct PresentedAlert {
  var id: UUID
  var title: String
  var message: String?
  var buttons: [Button]
  /// What pressing a button (by index), or dismissing (`nil`), asks of the app.
  var press: (Int?) -> AppView.Command

  struct Button: Equatable {
    var label: String
    var role: ButtonStateRole?
    var hotkey: Character?
  }

  /// An alert of the app or one of its screens, whose buttons send `send`'s actions.
  init<Action>(
    _ alert: AlertState<Action>,
    send: @escaping (PresentationAction<Action>) -> PersistedApp.Action
  ) {
    self.init(alert) { .send(send($0)) }
  }

  /// An alert whose buttons ask anything of the app.
  init<Action>(
    _ alert: AlertState<Action>,
    command: @escaping (PresentationAction<Action>) -> AppView.Command
  ) {
    id = alert.id
    title = alert.title.string
    message = alert.message?.string
    // NB: An alert without buttons still needs one to close it, as on Apple's platforms.
    let states = alert.buttons.isEmpty ? [ButtonState<Action>(label: { "OK" })] : alert.buttons
    var taken: Set<Character> = []
    buttons = states.map { button in
      let label = button.label.string
      let hotkey = label.lowercased().first { $0.isLetter && !taken.contains($0) }
      if let hotkey { taken.insert(hotkey) }
      return Button(label: label, role: button.role, hotkey: hotkey)
    }
    press = { index in
      guard let index, let action = states[index].action else { return command(.dismiss) }
      return command(.presented(action))
    }
  }

  /// The button Esc presses: the cancel button, if there is one.
  var cancelIndex: Int? {
    buttons.firstIndex { $0.role == .cancel }
  }

  /// The button selected when the alert appears, which Enter presses: the harmless choice, as
  /// platform guidelines ask of a default button. That is the cancel button, or else the first
  /// that is not destructive.
  var defaultIndex: Int {
    cancelIndex ?? buttons.firstIndex { $0.role != .destructive } ?? 0
  }
}

enum AlertOverlay {
  static let keys = [
    KeyHelp("←→ tab", "choose"), KeyHelp("⏎", "press"), KeyHelp("letter", "press its button"),
    KeyHelp("esc", "cancel"),
  ]

  static func render(
    _ alert: PresentedAlert,
    selection: Int,
    over screen: Rect,
    on canvas: inout Canvas
  ) {
    let width = AppView.overlayBox(Size(width: 60, height: 0), over: screen).size.width
    let inner = max(width - 4, 1)
    // NB: An alert can quote a title of any length: its text is read only as far as the screen
    // shows, and a message one line further, to know whether to show that it goes on.
    let titleLines = alert.title.wrapped(toWidth: inner, maxLines: screen.size.height)
    var messageLines =
      alert.message.map { $0.wrapped(toWidth: inner, maxLines: screen.size.height + 1) } ?? []
    let buttonLines = layoutButtons(alert.buttons, width: inner)
    // NB: Borders, then a blank line after the title and one before the buttons, when room.
    var fixed = titleLines.count + buttonLines.count + 2 + (messageLines.isEmpty ? 0 : 1)
    if fixed + messageLines.count + 1 <= screen.size.height { fixed += 1 }
    let room = max(screen.size.height - fixed, 0)
    if messageLines.count > room {
      messageLines = Array(messageLines.prefix(room))
      while messageLines.last?.isEmpty == true { messageLines.removeLast() }
      if let last = messageLines.popLast() {
        messageLines.append((last + " …").truncated(toWidth: inner))
      }
    }
    let box = AppView.overlayBox(
      Size(width: width, height: fixed + messageLines.count), over: screen)
    canvas.fill(box.inset(by: -1).intersection(screen), style: .plain)
    canvas.box(box, style: Palette.frame, title: nil)
    let body = box.inset(top: 1, left: 2, bottom: 1, right: 2)
    var line = 0
    for text in titleLines where line < body.size.height {
      canvas.text(text, at: body.row(line).origin, style: Palette.title, clip: body)
      line += 1
    }
    if !messageLines.isEmpty { line += 1 }
    for text in messageLines where line < body.size.height {
      canvas.text(text, at: body.row(line).origin, style: .plain, clip: body)
      line += 1
    }
    let selected = min(max(selection, 0), alert.buttons.count - 1)
    let firstButtonLine = body.size.height - buttonLines.count
    for (offset, indices) in buttonLines.enumerated() where firstButtonLine + offset >= 0 {
      let row = body.row(firstButtonLine + offset)
      var column = row.minColumn
      for index in indices {
        let button = alert.buttons[index]
        column =
          drawButton(
            button, isSelected: index == selected, at: Point(column: column, row: row.minRow),
            clip: row, on: &canvas) + 2
      }
    }
  }

  /// Applies a key to the alert.
  ///
  /// - Returns: The index of the button pressed, `.some(nil)` for a dismissal, or `nil` when
  ///   the key only moved the selection (or did nothing).
  static func handle(_ key: Key, _ alert: PresentedAlert, selection: inout Int) -> Int?? {
    let count = alert.buttons.count
    let current = min(max(selection, 0), count - 1)
    switch key {
    case .left, .up, .backTab:
      selection = (current + count - 1) % count
    case .right, .down, .tab:
      selection = (current + 1) % count
    case .enter, .character(" "):
      return .some(current)
    case .escape:
      return .some(alert.cancelIndex)
    case .character(let character):
      let letter = Character(character.lowercased())
      if let index = alert.buttons.firstIndex(where: { $0.hotkey == letter }) {
        return .some(index)
      }
    default:
      break
    }
    return nil
  }

  /// The buttons, as indices, in lines that fit `width`.
  private static func layoutButtons(_ buttons: [PresentedAlert.Button], width: Int) -> [[Int]] {
    var lines: [[Int]] = [[]]
    var used = 0
    for (index, button) in buttons.enumerated() {
      let buttonWidth = button.label.displayWidth + 4
      if used > 0, used + buttonWidth > width {
        lines.append([])
        used = 0
      }
      lines[lines.count - 1].append(index)
      used += buttonWidth
    }
    return lines
  }

  /// Draws `[ Label ]` with its hotkey underlined.
  private static func drawButton(
    _ button: PresentedAlert.Button,
    isSelected: Bool,
    at point: Point,
    clip: Rect,
    on canvas: inout Canvas
  ) -> Int {
    var style = isSelected ? Palette.selected : Style.plain
    if button.role == .destructive { style = style.foreground(Palette.destructive) }
    var column = point.column
    column += canvas.text(isSelected ? "[ " : "  ", at: point, style: style, clip: clip)
    var hotkeyPending = button.hotkey != nil
    for character in button.label {
      let isHotkey = hotkeyPending && Character(character.lowercased()) == button.hotkey
      if isHotkey { hotkeyPending = false }
      column += canvas.text(
        String(character), at: Point(column: column, row: point.row),
        style: isHotkey ? style.underlined().bold() : style, clip: clip)
    }
    return column
      + canvas.text(
        isSelected ? " ]" : "  ", at: Point(column: column, row: point.row), style: style,
        clip: clip)
  }
}
