extension Effect {
  /// An effect that runs several effects at the same time.
  ///
  /// ```swift
  /// return .merge(
  ///   .run { send in await send(.speechResult(…)) },
  ///   .run { _ in await soundClient.play() }
  /// )
  /// ```
  ///
  /// - Parameter effects: The effects to run.
  /// - Returns: An effect that finishes when all of them have finished.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// An effect that runs a sequence of effects at the same time.
  ///
  /// - Parameter effects: The effects to run.
  /// - Returns: An effect that finishes when all of them have finished.
  @inlinable
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var flattened: [EffectBox] = []
    flattened.reserveCapacity(effects.underestimatedCount)
    for effect in effects {
      guard let box = effect.box else { continue }
      if case .merge(let merge) = effect.operation {
        flattened.append(contentsOf: merge.parts)
      } else {
        flattened.append(box)
      }
    }
    switch flattened.count {
    case 0: return .none
    case 1: return Self(box: flattened[0])
    default: return Self(box: PartsBox(merging: flattened))
    }
  }

  /// Runs this effect and another at the same time.
  ///
  /// - Parameter other: The other effect.
  /// - Returns: An effect that finishes when both have finished.
  public func merge(with other: Self) -> Self {
    if isNone { return other }
    if other.isNone { return self }
    return .merge([self, other])
  }
}
