import Composable
import Testing

struct AlertStateTests {
  enum Action: Equatable { case delete, archive }

  func makeAlert(canArchive: Bool) -> AlertState<Action> {
    AlertState {
      TextState("Delete?")
    } actions: {
      ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
      if canArchive {
        ButtonState(action: .archive) { TextState("Archive") }
      }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("This cannot be undone.")
    }
  }

  @Test func anAlertKeepsItsTitleButtonsAndMessage() {
    let alert = makeAlert(canArchive: true)
    #expect(alert.title == "Delete?")
    #expect(alert.buttons.map(\.label) == ["Delete", "Archive", "Cancel"])
    #expect(makeAlert(canArchive: false).buttons.map(\.role) == [.destructive, .cancel])
    #expect(alert.message == "This cannot be undone.")
  }

  @Test func equalityIgnoresIdentity() {
    let first = makeAlert(canArchive: true)
    let second = makeAlert(canArchive: true)
    #expect(first.id != second.id)
    #expect(first == second)
    #expect(first != makeAlert(canArchive: false))
  }

  @Test func mapTransformsButtonActions() {
    let mapped = makeAlert(canArchive: true).map { "\($0)" }
    #expect(mapped.buttons.map(\.action) == ["delete", "archive", nil])
    #expect(mapped.message == "This cannot be undone.")
  }
}
