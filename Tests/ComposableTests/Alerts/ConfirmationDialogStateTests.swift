import Composable
import CustomDump
import Testing

struct ConfirmationDialogStateTests {
  enum Action: Equatable, Hashable { case share, delete }

  func makeDialog(message: String? = nil) -> ConfirmationDialogState<Action> {
    ConfirmationDialogState(titleVisibility: .visible) {
      TextState("Meeting")
    } actions: {
      ButtonState(action: .share) { TextState("Share") }
      ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
    } message: {
      TextState(message ?? "What now?")
    }
  }

  @Test func equalityAndHashingIgnoreIdentity() {
    let (first, second) = (makeDialog(), makeDialog())
    #expect(first.id != second.id)
    #expect(first == second)
    #expect(first.hashValue == second.hashValue)
    #expect(first != makeDialog(message: "Something else?"))
  }

  @Test func theTitleIsShownAutomaticallyUnlessSaidOtherwise() {
    let dialog = ConfirmationDialogState<Action> { TextState("Meeting") }
    #expect(dialog.titleVisibility == .automatic)
    #expect(dialog.buttons.isEmpty)
    #expect(dialog.message == nil)
  }

  @Test func aDumpShowsWhatTheUserSeesAndNotTheIdentity() {
    var dump = ""
    customDump(makeDialog(), to: &dump)
    #expect(dump.contains("\"Meeting\""))
    #expect(dump.contains("\"What now?\""))
    #expect(!dump.contains("id:"))
  }
}
