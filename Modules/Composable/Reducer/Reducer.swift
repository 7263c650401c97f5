/// A type that evolves a feature's state in response to actions and describes the side effects
/// to run next.
///
/// A reducer is the unit of composition in this architecture: a screen, a sheet and the whole
/// app are all reducers, and bigger reducers are built from smaller ones with ``Scope``,
/// ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` and the navigation operators.
/// Conform either by implementing ``reduce(into:action:)`` directly or, more commonly, by
/// returning a composition from ``body``.
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .incrementButtonTapped:
///         state.count += 1
///         return .none
///       }
///     }
///   }
/// }
/// ```
///
/// > Important: Actions must be `Sendable` because effects deliver them from concurrently
/// > running tasks back to the main actor.
public protocol Reducer<State, Action> {
  /// The state the reducer evolves.
  associatedtype State

  /// The actions the reducer responds to.
  associatedtype Action: Sendable

  /// The type of the composed reducer returned from ``body``.
  ///
  /// Reducers that implement ``reduce(into:action:)`` instead of `body` get `Never`.
  associatedtype Body

  /// Evolves `state` for `action` and returns the effects to run afterwards.
  ///
  /// Implement this or ``body``, not both.
  ///
  /// - Parameters:
  ///   - state: The state to mutate in place.
  ///   - action: The action that happened.
  /// - Returns: The effects the store should run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducer's logic, composed from other reducers.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

/// A convenience for naming the reducer type of a feature from inside it.
///
/// ```swift
/// var body: some ReducerOf<Self> { … }
/// ```
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// The body of a reducer that implements ``reduce(into:action:)`` itself.
  ///
  /// > Important: Never call this: such reducers have no body. It exists only so that
  /// > `reduce`-based conformances compile.
  public var body: Body {
    fatalError(
      """
      '\(Self.self)' has no body. Call 'reduce(into:action:)' on it instead of reading 'body'.
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs the reducer returned from ``body``.
  ///
  /// Called directly, this builds the body for every action. Inside a ``ReducerBuilder`` (a
  /// store's reducer closure, another feature's body, a `Scope`) a feature is wrapped so that
  /// its body is built once, on first use, and kept.
  ///
  /// - Parameters:
  ///   - state: The state to mutate in place.
  ///   - action: The action that happened.
  /// - Returns: The effects the body returned.
  public func reduce(into state: inout Body.State, action: Body.Action) -> Effect<Body.Action> {
    self.body.reduce(into: &state, action: action)
  }
}
