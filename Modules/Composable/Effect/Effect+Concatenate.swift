extension Effect {
  /// An effect that runs several effects one after another.
  ///
  /// Each effect starts when the previous one has finished. Cancelling the concatenation stops
  /// the running effect and skips the rest.
  ///
  /// ```swift
  /// return .concatenate(
  ///   .run { _ in try await storage.save(standups) },
  ///   .send(.saveFinished)
  /// )
  /// ```
  ///
  /// - Parameter effects: The effects to run, in order.
  /// - Returns: An effect that finishes after the last one.
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// An effect that runs a sequence of effects one after another.
  ///
  /// - Parameter effects: The effects to run, in order.
  /// - Returns: An effect that finishes after the last one.
  @inlinable
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    var flattened: [EffectBox] = []
    for effect in effects {
      guard let box = effect.box else { continue }
      if case .concatenate(let concatenate) = effect.operation {
        flattened.append(contentsOf: concatenate.parts)
      } else {
        flattened.append(box)
      }
    }
    switch flattened.count {
    case 0: return .none
    case 1: return Self(box: flattened[0])
    default: return Self(box: PartsBox(concatenating: flattened))
    }
  }

  /// Runs this effect and then another.
  ///
  /// - Parameter next: The effect to run once this one has finished.
  /// - Returns: The two effects in sequence.
  public func concatenate(with next: Self) -> Self {
    .concatenate([self, next])
  }
}
