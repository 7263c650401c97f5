import Dependencies

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#else
  #error("ReducerContext needs POSIX threads.")
#endif

/// Where the running code is: the effects of its store, and its place among navigated features.
/// This file is the one place that decides in which context a reducer, an effect and an action
/// sent back from an effect run, and why.
///
/// The Composable Architecture keeps this in the dependencies (`navigationIDPath`, `dismiss`).
/// Here it is a context of its own, because it changes on every action a stack element or a
/// presentation receives, and changing `DependencyValues` copies its storage, which costs more
/// than a small feature's reducer. One context, kept in three places:
///
/// - **While a reducer runs**, on its thread (``current``): a reducer runs synchronously, so a
///   thread-specific pointer set around it is exact, where binding a task-local would allocate on
///   every child action. The store sets the root context
///   (``reduceAtRoot(_:into:action:runtime:dependencies:)``) and each navigation operator
///   narrows it for its child (``reduce(entering:isDismissable:_:)``).
/// - **In an effect's box**, as the effect was created (``EffectEnvironment``), without the
///   store's runtime: an effect outlives the reduction.
/// - **Inside an effect**, in its task (``inTask``): the task binds the context its effect kept,
///   with the effect's dependencies, only where they differ from what the task inherits
///   (``TaskInheritance``).
///
/// An action an effect sends back is reduced on the main actor inside the effect's task
/// (``sendingBackFromEffect(_:)``); its reducers get their context from the thread as always,
/// and a task one of them starts by hand gets the store's root context, not the effect's.
///
/// Cancellation identifiers (`CancellationKey.inCurrentScope`) and `dismiss()` read the context,
/// so they mean the same inside an effect as in the reducer that returned it. Guarded by
/// `ReducerContextTests`, `DismissEffectTests`, and `StoreTests`' dependency tests.
@usableFromInline
package struct ReducerContext: Sendable {
  /// The effects of the store whose reducer is running, so that navigation operators can cancel
  /// the work of children that have gone from the state; `nil` inside an effect.
  package var runtime: EffectRuntime?
  /// The navigated feature that is running, or `nil` for the root feature of a store.
  ///
  /// A reference, so that a context copies as two retains: every read of ``current`` copies the
  /// context, and every `Effect.run` keeps one.
  private var feature: RunningFeature?

  private final class RunningFeature: Sendable {
    let scope: NavigatedScope
    /// The feature ``DismissEffect`` dismisses: the nearest one run by `forEach` or a
    /// presentation `ifLet`.
    let dismissal: Dismissal

    init(scope: NavigatedScope, dismissal: Dismissal) {
      self.scope = scope
      self.dismissal = dismissal
    }
  }

  private enum Dismissal: Sendable {
    case nothing
    /// The feature itself.
    case runningFeature
    case ancestor(RunningFeature)
  }

  /// The context of a store's root feature.
  package init(runtime: EffectRuntime?) {
    self.runtime = runtime
  }

  /// The navigation scope of the running feature, which scopes its cancellation identifiers.
  package var navigationIDPath: NavigationIDPath {
    feature?.scope.path ?? NavigationIDPath()
  }

  /// The scope that ``DismissEffect`` dismisses, or `nil` at the root of a store.
  package var dismissScope: NavigationIDPath? {
    guard let feature else { return nil }
    switch feature.dismissal {
    case .nothing: return nil
    case .runningFeature: return feature.scope.path
    case .ancestor(let ancestor): return ancestor.scope.path
    }
  }

  /// Whether no navigated feature is running: a store's root feature, or code outside any
  /// store.
  var isRoot: Bool {
    feature == nil
  }

  // MARK: - Reading

  /// The context of the running code: the one set on this thread while a reducer runs, and
  /// otherwise the task's (an effect's, or the root context outside any effect).
  ///
  /// > Note: A job run on the same thread while a reducer runs would see the reducer's context;
  /// > only a reducer that spins a run loop could let one run, and none here does.
  package static var current: ReducerContext {
    guard let running = reducing.value else { return inTask }
    return running.assumingMemoryBound(to: ReducerContext.self).pointee
  }

  /// ``navigationIDPath`` of ``current``, read in place rather than by copying the context:
  /// every cancellation identifier an effect is made with reads it.
  @usableFromInline
  package static var currentNavigationIDPath: NavigationIDPath {
    guard let running = reducing.value else { return inTask.navigationIDPath }
    return running.assumingMemoryBound(to: ReducerContext.self).pointee.navigationIDPath
  }

  // MARK: - A reducer: the thread's context

  /// The context of the reducer running on each thread, if any.
  private static let reducing = ThreadLocalPointer()

  /// Runs a store's reducer in the store's root context, with the store's dependencies, and
  /// returns its effect.
  ///
  /// Not isolated, so that its closures are not either: an isolated closure handed to code that
  /// is not checks that it runs on the main actor each time it is called.
  ///
  /// - Parameters:
  ///   - reducer: The store's reducer.
  ///   - state: The store's state.
  ///   - action: The action.
  ///   - runtime: The store's effects, which navigation operators reach through the context.
  ///   - dependencies: The store's dependencies.
  static func reduceAtRoot<State, Action>(
    _ reducer: any Reducer<State, Action>,
    into state: inout State,
    action: Action,
    runtime: EffectRuntime,
    dependencies: DependencyValues
  ) -> Effect<Action> {
    // NB: Assigned rather than returned from the closures, so that they are not generic over
    // their result.
    var effect = Effect<Action>.none
    withUnsafePointer(to: ReducerContext(runtime: runtime)) { root in
      reducing.withValue(root) {
        DependencyValues.$_current.withValue(dependencies) {
          effect = reducer.reduce(into: &state, action: action)
        }
      }
    }
    return effect
  }

  /// Runs `reduction`, a navigated child's reducer, synchronously in the child's context: its
  /// own scope and, when its parent can dismiss it (a stack element, a presentation), the scope
  /// `dismiss()` ends; otherwise what this feature dismisses.
  func reduce(entering child: NavigatedScope, isDismissable: Bool, _ reduction: () -> Void) {
    var context = self
    context.feature = RunningFeature(
      scope: child,
      dismissal: isDismissable ? .runningFeature : inheritedDismissal
    )
    withUnsafePointer(to: context) { Self.reducing.withValue($0, reduction) }
  }

  /// What a child its parent cannot dismiss dismisses: what this feature dismisses, naming
  /// this feature when that is the one.
  private var inheritedDismissal: Dismissal {
    guard let feature else { return .nothing }
    if case .runningFeature = feature.dismissal { return .ancestor(feature) }
    return feature.dismissal
  }

  // MARK: - An effect: the task's context

  /// The context of an effect's task, bound by the task to the one its effect was created in;
  /// the root context outside any effect.
  @TaskLocal package static var inTask = ReducerContext(runtime: nil)

  // MARK: - An action sent back from an effect

  /// Runs `send`, which delivers an action from an effect to its store, in the store's root
  /// task context.
  ///
  /// The action is reduced inside the effect's task, whose context is the feature's that made
  /// the effect. The reducers read theirs from the thread, but a task one of them starts by hand
  /// inherits the task's: it gets the root context, as a task started by a reducer for an action
  /// from outside does.
  static func sendingBackFromEffect(_ send: () -> Void) {
    guard !inTask.isRoot else { return send() }
    $inTask.withValue(ReducerContext(runtime: nil), operation: send)
  }
}

/// What a run carries from the reducer that returned it to the task that runs it: the
/// dependencies and the reducer context in effect there.
///
/// Captured by one call that is not generic, so that `Effect.run` is inlined into the feature
/// that calls it, where it makes its box knowing the box's type, while the capture, which reads
/// task-locals of the internally imported `Dependencies`, stays in this module.
@usableFromInline
struct EffectEnvironment: Sendable {
  let dependencies: DependencyValues
  /// The context the effect was created in, without its store's runtime: the effect outlives
  /// the reduction, and its task is given the runtime it runs on.
  let context: ReducerContext

  /// The environment of the running code.
  @usableFromInline
  static func current() -> Self {
    var context = ReducerContext.current
    context.runtime = nil
    return Self(dependencies: DependencyValues._current, context: context)
  }
}

/// What the tasks one walk over an effect creates inherit, and so what each has to bind for
/// its run: the dependencies the walk binds where it creates them (the store's), and the task
/// context of the code that starts the walk.
///
/// Most runs come from a store's root feature with the store's dependencies, and their tasks
/// bind nothing. Decided where a task is created, which copies the task-locals bound there, not
/// inside the task. Guarded by `StoreTests` (dependencies reach every run) and
/// `DismissEffectTests` (a run's context is its feature's).
struct TaskInheritance {
  /// The dependencies bound where the walk creates its tasks.
  let dependencies: DependencyValues
  /// Whether the walk's tasks inherit the root context; read when the first root run starts.
  private var inheritsRootContext: Bool?

  init(dependencies: DependencyValues) {
    self.dependencies = dependencies
  }

  /// What the task of a run made in `environment` binds; `nil` when it binds nothing.
  @inline(__always)
  mutating func binding(for environment: EffectEnvironment) -> TaskBinding? {
    let inheritsDependencies = DependencyIdentity.areIdentical(
      environment.dependencies,
      dependencies
    )
    let inheritsContext: Bool
    if environment.context.isRoot {
      if inheritsRootContext == nil {
        inheritsRootContext = ReducerContext.inTask.isRoot
      }
      inheritsContext = inheritsRootContext == true
    } else {
      inheritsContext = false
    }
    switch (inheritsDependencies, inheritsContext) {
    case (true, true): return nil
    case (true, false): return .context
    case (false, true): return .dependencies
    case (false, false): return .dependenciesAndContext
    }
  }
}

/// The task-locals a run's task binds around its work: those of the run's environment that
/// differ from what the task inherited.
enum TaskBinding {
  case context
  case dependencies
  case dependenciesAndContext

  /// Runs the work of `run` with what this binds from the run's environment.
  ///
  /// Never inlined into the task's closure, whose frame every effect's task holds: the three
  /// bindings would enlarge it past the task's first block of memory (see `EffectTask`).
  @inline(never)
  func execute<Action>(_ run: Effect<Action>.RunBox, send: Send<Action>, origin: Action) async {
    let environment = run.environment
    switch self {
    case .context:
      await ReducerContext.$inTask.withValue(environment.context) {
        await EffectRuntime.perform(run, send: send, origin: origin)
      }
    case .dependencies:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await EffectRuntime.perform(run, send: send, origin: origin)
      }
    case .dependenciesAndContext:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await ReducerContext.$inTask.withValue(environment.context) {
          await EffectRuntime.perform(run, send: send, origin: origin)
        }
      }
    }
  }
}

/// A pointer that each thread sets and reads for itself: a POSIX thread-specific value, which
/// keeps the context of the reducer running on each thread.
///
/// For state that lives exactly as long as a synchronous call on one thread, where binding a
/// task-local would cost far more than the call: the runtime allocates the binding and checks
/// the task's status records for a task group on every push. Nothing is inherited: a task
/// started inside the call sees `nil`. Guarded by `ThreadLocalPointerTests`.
package struct ThreadLocalPointer: Sendable {
  private let key: pthread_key_t

  /// Makes a new thread-specific pointer, `nil` on every thread. Its key is never freed: make one
  /// per purpose, once.
  package init() {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed with \(status)")
    self.key = key
  }

  /// The pointer this thread set last, or `nil`.
  package var value: UnsafeRawPointer? {
    pthread_getspecific(key).map(UnsafeRawPointer.init)
  }

  /// Sets this thread's pointer to `pointer` while `body` runs, then puts back the one before.
  ///
  /// `pointer` must stay valid until `body` returns.
  package func withValue(_ pointer: UnsafeRawPointer, _ body: () -> Void) {
    let previous = pthread_getspecific(key)
    // NB: Setting a key that exists fails only when the thread's table cannot grow.
    let status = pthread_setspecific(key, pointer)
    precondition(status == 0, "pthread_setspecific failed with \(status)")
    defer { pthread_setspecific(key, previous) }
    body()
  }
}
