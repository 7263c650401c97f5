/// A result builder that combines reducers into one, running them in the order they are listed.
///
/// ``Reducer/body`` and ``CombineReducers`` use it. Every reducer in a block sees the state left
/// by the one before it, and their effects are merged.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.list, action: \.list) { StandupsList() }
///   Reduce { state, action in … }
///   if isLogging {
///     Reduce { _, action in print(action); return .none }
///   }
/// }
/// ```
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
  /// Runs each reducer of a `for` loop in turn.
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _ReducerArray<R> {
    _ReducerArray(reducers: reducers)
  }

  /// An empty block does nothing.
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  /// The first branch of an `if`/`else` or `switch`.
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    first reducer: First
  ) -> _ConditionalReducer<First, Second> {
    .first(reducer)
  }

  /// The second branch of an `if`/`else` or `switch`.
  public static func buildEither<First: Reducer<State, Action>, Second: Reducer<State, Action>>(
    second reducer: Second
  ) -> _ConditionalReducer<First, Second> {
    .second(reducer)
  }

  /// A reducer written in the block.
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
    expression
  }

  /// A reducer with a ``Reducer/body``, written in the block: its body is built once, the first
  /// time it runs, and kept.
  ///
  /// Building a body creates its operators and case key paths, which costs far more than
  /// running them; doing it once per parent instead of once per action keeps the cost of an
  /// action independent of how deep the feature tree is. Building it on first use, and keeping
  /// it in a box, is what lets a feature present or push itself: its body holds another
  /// instance of it, whose body is only built when that instance first runs.
  public static func buildExpression<R: Reducer<State, Action>>(
    _ expression: R
  ) -> _BodyReducer<R> where R.Body: Reducer<State, Action> {
    _BodyReducer(expression)
  }

  /// The reducer a block produces.
  public static func buildFinalResult<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }

  /// A reducer inside `if #available`.
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(
    _ wrapped: R
  ) -> Reduce<State, Action> {
    Reduce(wrapped)
  }

  /// An `if` without `else`: the reducer runs only when the condition held.
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> R? {
    wrapped
  }

  /// The first reducer of a block.
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  /// Appends the next reducer of a block to the ones before it.
  public static func buildPartialBlock<
    Accumulated: Reducer<State, Action>, Next: Reducer<State, Action>
  >(accumulated: Accumulated, next: Next) -> _ReducerSequence<Accumulated, Next> {
    _ReducerSequence(first: accumulated, second: next)
  }
}

/// A reducer whose body is built once, on first use. Built by ``ReducerBuilder``; not meant to
/// be named.
///
/// Its type names only the feature, never the feature's body: a body that contains its own
/// feature (a screen that pushes or presents itself) would otherwise have a type defined in
/// terms of itself.
public struct _BodyReducer<Base: Reducer>: Reducer {
  let base: Base
  let buildBody: (Base) -> any Reducer<Base.State, Base.Action>
  let cache = BodyCache<Base.State, Base.Action>()

  /// Wraps a feature whose body is a reducer of its state and actions.
  init(_ base: Base) where Base.Body: Reducer<Base.State, Base.Action> {
    self.base = base
    self.buildBody = { $0.body }
  }

  /// Runs the body, building it the first time.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    cache.body(orBuild: { buildBody(base) }).reduce(into: &state, action: action)
  }
}

/// Where a ``_BodyReducer`` keeps the body it built: by reference, so that a recursive feature
/// does not contain itself by value, and without its type.
final class BodyCache<State, Action: Sendable> {
  // NB: Unchecked: every access is instantaneous, so none overlaps another, and the check costs
  // more than the read (`RecursionTests`; `Benchmarks/instruction-counts`, element send).
  @exclusivity(unchecked) private var body: (any Reducer<State, Action>)?

  func body(orBuild build: () -> any Reducer<State, Action>) -> any Reducer<State, Action> {
    if let body { return body }
    let body = build()
    self.body = body
    return body
  }
}

/// Two reducers run one after the other. Built by ``ReducerBuilder``; not meant to be named.
public struct _ReducerSequence<First: Reducer, Second: Reducer<First.State, First.Action>>:
  Reducer
{
  let first: First
  let second: Second

  /// Runs the first reducer, then the second, and merges their effects.
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    let secondEffect = second.reduce(into: &state, action: action)
    return firstEffect.merge(with: secondEffect)
  }
}

/// One of two reducers, chosen by a condition. Built by ``ReducerBuilder``.
public enum _ConditionalReducer<First: Reducer, Second: Reducer<First.State, First.Action>>:
  Reducer
{
  case first(First)
  case second(Second)

  /// Runs the chosen reducer.
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let first):
      return first.reduce(into: &state, action: action)
    case .second(let second):
      return second.reduce(into: &state, action: action)
    }
  }
}

/// The reducers of a `for` loop, run in order. Built by ``ReducerBuilder``.
public struct _ReducerArray<Element: Reducer>: Reducer {
  let reducers: [Element]

  /// Runs every reducer in order and merges their effects.
  public func reduce(
    into state: inout Element.State,
    action: Element.Action
  ) -> Effect<Element.Action> {
    .merge(reducers.map { $0.reduce(into: &state, action: action) })
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  /// Runs the wrapped reducer when there is one; does nothing otherwise.
  ///
  /// - Parameters:
  ///   - state: The state to mutate in place.
  ///   - action: The action that happened.
  /// - Returns: The wrapped reducer's effects, or `.none`.
  public func reduce(
    into state: inout Wrapped.State,
    action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    switch self {
    case .some(let wrapped):
      return wrapped.reduce(into: &state, action: action)
    case .none:
      return .none
    }
  }
}
