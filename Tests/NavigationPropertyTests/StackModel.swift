import Composable

/// One thing a user, a view layer or the parent does to the stack and the sheet. Elements are
/// named by position among those on the stack (wrapping around), or as an ID nobody has.
enum Step: Sendable, CustomStringConvertible {
  case push(second: Bool)
  case viewPush(second: Bool)
  case viewPushOfAnIDInUse(Int)
  case popFrom(Target)
  case element(Target, Command)
  case removeElement(Target)
  case replaceElement(Target)
  case replacePath(count: Int)
  case present
  case dismissSheet
  case sheet(Command)
  case closeSheetFromParent
  case stopAllWork

  enum Target: Sendable, CustomStringConvertible {
    case onStack(Int)
    case missing(Int)

    var description: String {
      switch self {
      case .onStack(let position): "#\(position)"
      case .missing(let offset): "missing+\(offset)"
      }
    }
  }

  enum Command: String, Sendable, CaseIterable {
    case close
    case start
    case stop
  }

  var description: String {
    switch self {
    case .push(let second): "push(\(second ? "second" : "first"))"
    case .viewPush(let second): "viewPush(\(second ? "second" : "first"))"
    case .viewPushOfAnIDInUse(let position): "viewPushOfAnIDInUse(#\(position))"
    case .popFrom(let target): "popFrom(\(target))"
    case .element(let target, let command): "element(\(target), .\(command))"
    case .removeElement(let target): "removeElement(\(target))"
    case .replaceElement(let target): "replaceElement(\(target))"
    case .replacePath(let count): "replacePath(\(count))"
    case .present: "present"
    case .dismissSheet: "dismissSheet"
    case .sheet(let command): "sheet(.\(command))"
    case .closeSheetFromParent: "closeSheetFromParent"
    case .stopAllWork: "stopAllWork"
    }
  }
}

/// What the stack and the sheet should be, in plain arrays, and which of them are working.
struct Model {
  struct Element: Equatable {
    var id: Int
    var isSecond: Bool
    var label: Int
    var isWorking = false
  }

  struct Sheet: Equatable {
    var label: Int
    var isWorking = false
  }

  var stack: [Element] = []
  var sheet: Sheet?
  var nextID = 0
  var nextLabel = 0

  /// The number of effects that should be running.
  var workingCount: Int {
    stack.count(where: \.isWorking) + (sheet?.isWorking == true ? 1 : 0)
  }

  /// The cancellation keys that should be registered: a running worker's own identifier at its
  /// path and its key as a child of its slot, and the identifier at the root, which they share.
  var keyCount: Int {
    let working = stack.count(where: \.isWorking) + (sheet?.isWorking == true ? 1 : 0)
    return 2 * working + (working > 0 ? 1 : 0)
  }

  func position(_ target: Step.Target) -> Int? {
    guard case .onStack(let position) = target, !stack.isEmpty else { return nil }
    return position % stack.count
  }

  func id(_ target: Step.Target) -> Int {
    switch target {
    case .onStack:
      return position(target).map { stack[$0].id } ?? nextID + 1
    case .missing(let offset):
      // An ID that was never generated, or one that was and is gone.
      return offset.isMultiple(of: 2) ? nextID + offset : -(offset + 1)
    }
  }
}
