import Composable
import ConcurrencyExtras
import Testing

@MainActor
struct PrintChangesTests {
  struct Form: Equatable {
    var title = ""
    var minutes = 5
  }

  @Test func printsTheActionAndADiffOfTheState() {
    let output = LockIsolated<[String]>([])
    let printer = _ReducerPrinter<Form, String> { action, oldState, newState in
      output.withValue {
        $0.append(
          _ReducerPrinter.describeChange(action: action, oldState: oldState, newState: newState)
        )
      }
    }
    let store = Store(initialState: Form()) {
      Reduce<Form, String> { state, action in
        if action != "noop" { state.title = action }
        return .none
      }
      ._printChanges(printer)
    }

    store.send("Engineering")
    store.send("noop")

    #expect(output.value.count == 2)
    #expect(output.value[0].contains("received action:\n  \"Engineering\""))
    #expect(output.value[0].contains("-   title: \"\""))
    #expect(output.value[0].contains("+   title: \"Engineering\""))
    #expect(output.value[1].contains("(No state changes)"))
  }
}
