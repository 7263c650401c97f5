import CustomDump

extension Reducer {
  /// Prints every action the reducer receives and the change it made to state.
  ///
  /// A debugging aid: the default printer writes a custom-dump diff (`-` before, `+` after) to
  /// standard output. Remove it before shipping.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     ._printChanges()
  /// }
  /// ```
  ///
  /// - Parameter printer: How to print; `nil` prints nothing.
  /// - Returns: A reducer that prints and then behaves like `self`.
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump
  ) -> some Reducer<State, Action> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// How ``Reducer/_printChanges(_:)`` describes an action and a state change.
public struct _ReducerPrinter<State, Action>: Sendable {
  let printChange: @Sendable (_ action: Action, _ oldState: State, _ newState: State) -> Void

  /// Creates a printer from a closure.
  ///
  /// - Parameter printChange: Receives the action and the state before and after it.
  public init(
    printChange:
      @escaping @Sendable (_ action: Action, _ oldState: State, _ newState: State) ->
      Void
  ) {
    self.printChange = printChange
  }

  /// Prints the action and a diff of the state, or "(No state changes)".
  public static var customDump: Self {
    Self { action, oldState, newState in
      print(describeChange(action: action, oldState: oldState, newState: newState))
    }
  }

  /// Prints only the action's case path.
  public static var actionLabels: Self {
    Self { action, _, _ in
      print("received action: \(debugCaseOutput(action))")
    }
  }

  /// The text ``customDump`` prints.
  package static func describeChange(action: Action, oldState: State, newState: State) -> String {
    var output = "received action:\n"
    CustomDump.customDump(action, to: &output, indent: 2)
    output += "\n"
    if let stateDiff = diff(oldState, newState) {
      output += stateDiff
    } else {
      output += "  (No state changes)"
    }
    return output
  }
}

struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>?

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer else { return base.reduce(into: &state, action: action) }
    let oldState = state
    let effect = base.reduce(into: &state, action: action)
    printer.printChange(action, oldState, state)
    return effect
  }
}
