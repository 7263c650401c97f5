import Composable
import Testing

struct ButtonStateTests {
  enum Action: Equatable { case delete, archive, restore }

  @ButtonStateBuilder<Action>
  func buttons(canArchive: Bool, archived: Bool, extra: [Action]) -> [ButtonState<Action>] {
    ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
    if canArchive {
      ButtonState(action: .archive) { TextState("Archive") }
    }
    if archived {
      ButtonState(action: .restore) { TextState("Restore") }
    } else {
      ButtonState(role: .cancel) { TextState("Cancel") }
    }
    for action in extra {
      ButtonState(action: action) { TextState("\(action)") }
    }
  }

  @Test func theBuilderKeepsTheButtonsOfEveryBranchInOrder() {
    #expect(
      buttons(canArchive: true, archived: false, extra: []).map(\.label)
        == ["Delete", "Archive", "Cancel"]
    )
    #expect(
      buttons(canArchive: false, archived: true, extra: [.delete]).map(\.label)
        == ["Delete", "Restore", "delete"]
    )
    #expect(
      buttons(canArchive: false, archived: false, extra: []).map(\.role) == [.destructive, .cancel]
    )
  }

  @Test func aButtonWithoutAnActionOnlyCloses() {
    let cancel = ButtonState<Action>(role: .cancel) { TextState("Cancel") }
    #expect(cancel.action == nil)
    #expect(cancel.map { "\($0)" }.action == nil)
  }

  @Test func mapTransformsTheActionAndKeepsTheRest() {
    let delete = ButtonState(role: .destructive, action: Action.delete) { TextState("Delete") }
    let mapped = delete.map { "\($0)" }
    #expect(mapped.action == "delete")
    #expect(mapped.role == .destructive)
    #expect(mapped.label == "Delete")
  }

  @Test func buttonsAreEqualWhenTheirRoleActionAndLabelAre() {
    let delete = ButtonState(role: .destructive, action: Action.delete) { TextState("Delete") }
    #expect(delete == ButtonState(role: .destructive, action: .delete) { TextState("Delete") })
    #expect(delete != ButtonState(action: .delete) { TextState("Delete") })
    #expect(delete != ButtonState(role: .destructive, action: .archive) { TextState("Delete") })
  }
}
