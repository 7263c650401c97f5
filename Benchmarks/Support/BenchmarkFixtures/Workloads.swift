public import Composable

// The measured work of the benchmarks, shared with the instruction counts so that the two
// measure the same thing. Callers reset `sleepers` before a workload that waits for them, and
// check what is left afterwards. The floors stay with their callers: a reducer passed to a
// function in another module would run through generic code, which is not the floor.

/// The two titles an element-send workload alternates, send by send; a floor copies them into a
/// local before its loop, so that it changes the element exactly as the sends do.
public let elementTitles = ["Design", "Engineering"]

/// The title `sendTitleChanges` leaves on the element after `count` sends.
public func lastTitle(afterSends count: Int) -> String {
  elementTitles[(count - 1) & 1]
}

/// `Stack.ElementSend`: sends `count` title changes to the element `id`, alternating two titles.
@MainActor
public func sendTitleChanges(
  _ count: Int,
  toElement id: StackElementID,
  in store: Store<Root.State, Root.Action>
) {
  let titles = elementTitles
  for iteration in 0..<count {
    store.send(.path(.element(id: id, action: .detail(.titleChanged(titles[iteration & 1])))))
  }
}

/// One round of `Stack.PushPop`: pushes `count` copies of `element` with IDs from `ids` and pops
/// them all with one `popFrom` of the first.
@MainActor
public func pushAndPop(
  _ count: Int,
  of element: DetailFeature.State,
  ids: StackElementIDGenerator,
  in store: Store<Root.State, Root.Action>
) {
  let first = ids.peek()
  for _ in 0..<count {
    store.send(.path(.push(id: ids(), state: .detail(element))))
  }
  store.send(.path(.popFrom(id: first)))
}

/// `Effects.StartCancel`: starts `count` effects with distinct IDs, waits until all of them
/// sleep, cancels each by ID and waits until they are gone.
@MainActor
public func startAndCancelEffects(_ count: Int, in store: Store<Int, Worker.Action>) async {
  store.send(.startEach(count: count))
  await sleepers.wait(for: count)
  store.send(.cancelEach(count: count))
  await store.effectRuntime.waitForRunningTasks()
}

/// `Effects.PopWithEffects`: pushes `detail`, has it start `count` long-running effects, waits
/// until they sleep, pops it and waits until its effects are gone. Returns `false`, having done
/// nothing else, when nothing was pushed.
@MainActor
public func pushStartEffectsAndPop(
  _ count: Int,
  on detail: DetailFeature.State,
  in store: Store<Root.State, Root.Action>
) async -> Bool {
  store.send(.pushDetail(detail))
  guard let id = store.state.path.ids.last else { return false }
  store.send(.path(.element(id: id, action: .detail(.appeared(effectCount: count)))))
  await sleepers.wait(for: count)
  store.send(.path(.popFrom(id: id)))
  await store.effectRuntime.waitForRunningTasks()
  return true
}
