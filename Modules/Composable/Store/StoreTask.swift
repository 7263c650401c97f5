/// The effects started by sending one action to a ``Store``, and by every action those effects
/// send back.
///
/// Await ``finish()`` to wait for them (for example while a screen is visible), or ``cancel()``
/// them. The handle covers the whole cascade: if an effect sends an action whose reduction
/// starts more effects, those are part of it too, so a screen's `onTask` work and everything it
/// leads to end together.
///
/// ```swift
/// let task = store.send(.onTask)
/// // … when the screen goes away:
/// task.cancel()
/// ```
public struct StoreTask: Hashable, Sendable {
  package let group: EffectGroup?

  package init(group: EffectGroup?) {
    self.group = group
  }

  /// Cancels the effects, and any the cascade would still start.
  public func cancel() {
    group?.cancel()
  }

  /// Waits for the effects, and for the effects of the actions they send, to finish.
  ///
  /// Cancelling the task that waits cancels the effects, which ties them to the lifetime of
  /// whatever awaits them.
  public func finish() async {
    guard let group else { return }
    await withTaskCancellationHandler {
      await group.finish()
    } onCancel: {
      group.cancel()
    }
  }

  /// Whether the effects were cancelled — with ``cancel()``, by their cancellation identifier,
  /// or because their store went away. `true` when no effect was started.
  public var isCancelled: Bool {
    group?.isCancelled ?? true
  }

  /// Whether two handles cover the same effects.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  /// Hashes the identity of the effects the handle covers.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}
