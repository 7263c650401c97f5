import Composable
import CustomDump
import Testing

struct TextStateTests {
  @Test func aLiteralAndTheInitialiserMakeTheSameText() {
    let literal: TextState = "Delete?"
    #expect(literal == TextState("Delete?"))
    #expect(literal.string == "Delete?")
  }

  @Test func textsConcatenate() {
    #expect(TextState("Delete ") + TextState("“Design”?") == "Delete “Design”?")
  }

  @Test func itDescribesItselfAsItsStringAndDumpsQuoted() {
    let text = TextState("Blob")
    #expect(text.description == "Blob")
    #expect(String(customDumping: text) == "\"Blob\"")
  }
}
