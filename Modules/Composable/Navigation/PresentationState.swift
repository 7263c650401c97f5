public import CustomDump

/// A property wrapper for state that is presented: a sheet, an alert, a confirmation dialog, or
/// an enum of them.
///
/// Run it with ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``, which ties
/// the presented feature's effects to its presentation. The value lives in a copy-on-write box,
/// so a large presented feature does not make the parent's state large, and comparing two
/// copies that share the box costs nothing.
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var destination: Destination.State?
/// }
///
/// state.destination = .edit(StandupForm.State(standup: state.standup))
/// ```
///
/// Equality, hashing, coding and dumps look only at the presented value.
@propertyWrapper
public struct PresentationState<State> {
  private final class Storage {
    /// What is presented; `nil` only while a write through ``wrappedValue`` is dismissing it.
    var value: State?
    /// The identity of `value`, worked out when it is written (including by the presented
    /// feature itself), so that the presentation operators never reflect on it for actions
    /// that leave the presentation alone.
    var identity: ChildIdentity?

    init(_ value: State) {
      self.value = value
      self.identity = ChildIdentity(of: value)
    }

    func didWrite() {
      identity = value.map(ChildIdentity.init(of:))
    }
  }

  /// The box of what is presented; `nil` when nothing is, which costs no allocation.
  private var storage: Storage?

  /// Creates the wrapper.
  ///
  /// - Parameter wrappedValue: What is presented, or `nil`.
  public init(wrappedValue: State?) {
    self.storage = wrappedValue.map(Storage.init)
  }

  /// What is presented, or `nil`.
  public var wrappedValue: State? {
    get { storage?.value }
    set {
      guard let newValue else {
        storage = nil
        return
      }
      if isKnownUniquelyReferenced(&storage), let storage {
        storage.value = newValue
        storage.didWrite()
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      guard let storage = uniqueStorage() else {
        var value: State?
        yield &value
        self.storage = value.map(Storage.init)
        return
      }
      yield &storage.value
      storage.didWrite()
      if storage.value == nil {
        self.storage = nil
      }
    }
  }

  /// The wrapper itself, for ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``:
  /// `\.$destination`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
    _modify { yield &self }
  }

  /// The identity of what is presented, or `nil` when nothing is.
  var identity: ChildIdentity? {
    storage?.identity
  }

  /// Runs `body` on the presented value in place.
  ///
  /// - Returns: Whether something is presented; `body` runs only if it is.
  ///
  /// Not inlinable, unlike `StackState.modify(id:_:)`: a write works out the identity again by
  /// reflection, which costs far more than generic code's metadata lookups.
  @discardableResult
  @usableFromInline
  package mutating func modify(_ body: (inout State) -> Void) -> Bool {
    guard let storage = uniqueStorage(), storage.value != nil else { return false }
    // Checked non-nil above; unwrapped in place, the presented state is not copied.
    body(&storage.value!)
    storage.didWrite()
    return true
  }

  /// The box, copied first if another value shares it; `nil` when nothing is presented.
  private mutating func uniqueStorage() -> Storage? {
    if isKnownUniquelyReferenced(&storage) { return storage }
    guard let value = storage?.value else {
      storage = nil
      return nil
    }
    let copy = Storage(value)
    storage = copy
    return copy
  }

  fileprivate func sharesStorage(with other: Self) -> Bool {
    storage === other.storage
  }
}

extension PresentationState: Equatable where State: Equatable {
  /// Whether the presented values are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sharesStorage(with: rhs) || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  /// Hashes the presented value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

// `@unchecked`: the box is only mutated while uniquely referenced (copy-on-write).
extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  /// Decodes the presented value.
  public init(from decoder: any Decoder) throws {
    try self.init(wrappedValue: State?(from: decoder))
  }
}

extension PresentationState: Encodable where State: Encodable {
  /// Encodes the presented value.
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }
}

extension PresentationState: CustomDumpReflectable {
  /// Dumps the presented value.
  public var customDumpMirror: Mirror {
    Mirror(reflecting: wrappedValue as Any)
  }
}
