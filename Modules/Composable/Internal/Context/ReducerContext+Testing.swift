package import ConcurrencyExtras

/// The navigation context a reducer runs in, for a plain store and plain operators written
/// outside the core: the reference ones that `NavigationPropertyTests` checks the core against.
///
/// A reducer runs at the root of its store, or as a child in a slot of the feature running (a
/// stack element, a presentation); ``Effect/cancellable(id:cancelInFlight:)`` and `dismiss()`
/// read where, as they read `navigationIDPath` in the Composable Architecture. The core's store
/// and operators set the same context (`ReducerContext`), faster.
package enum NavigationContext {
  /// Where the running reducer sits: the slot and the child of every level below its store's
  /// root, root first; empty at the root.
  package static var path: [AnyHashableSendable] {
    ReducerContext.current.navigationIDPath.components.map { AnyHashableSendable($0.base) }
  }

  /// Runs `body`, a store's reducer, at the root of its store.
  package static func atRoot<Result>(_ body: () -> Result) -> Result {
    ReducerContext.$inTask.withValue(ReducerContext(runtime: nil), operation: body)
  }

  /// Runs `body`, the reducer of the child `child` in the slot `slot` of the running feature, as
  /// that child: the cancellation identifiers it makes are the child's, and `dismiss()` in its
  /// effects dismisses the child.
  package static func inChild<Result>(
    _ child: some Hashable & Sendable,
    of slot: some Hashable & Sendable,
    _ body: () -> Result
  ) -> Result {
    var result: Result?
    _ = ReducerContext.current.reduce(
      entering: HashableIdentity(child), slot: HashableIdentity(slot), isDismissable: true
    ) {
      result = body()
    }
    // `reduce(entering:…)` runs its closure once.
    return result.unsafelyUnwrapped
  }
}
