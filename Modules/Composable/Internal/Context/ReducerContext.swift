import Dependencies

/// Where the running code is: the effects of its store, and its place among navigated features.
/// This file is the one place that decides in which context a reducer, an effect and an action
/// sent back from an effect run, and why.
///
/// The Composable Architecture keeps this in the dependencies (`navigationIDPath`, `dismiss`).
/// Here it is a context of its own, because it changes on every action a stack element or a
/// presentation receives, and changing `DependencyValues` copies its storage, which costs more
/// than a small feature's reducer. It takes three forms:
///
/// - **While a reducer runs**, the context belongs to its thread (``current``): a reducer runs
///   synchronously, so a thread-specific pointer set around it (``reduce(_:)``) is exact, where
///   binding a task-local would allocate on every child action. The store sets the root
///   context (``reduceAtRoot(runtime:dependencies:_:)``) and each navigation operator narrows it
///   for its child (``entering(_:isDismissable:)``).
/// - **Inside an effect**, the context is the task's (``inTask``): the one the reducer that
///   returned the effect ran in, without the store's runtime.
/// - **In between**, an effect keeps it in its box (``Escaped``, in ``EffectEnvironment``), and
///   the task that runs the effect binds it, with the effect's dependencies, only where they
///   differ from what the task inherits (``TaskInheritance``).
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
  /// A reference, so that a context copies as two retains and an escaped one as one: every read
  /// of ``current`` copies the context, and every `Effect.run` keeps one.
  private var feature: RunningFeature?

  fileprivate final class RunningFeature: Sendable {
    let scope: NavigatedScope
    /// The feature ``DismissEffect`` dismisses: the nearest one run by `forEach` or a
    /// presentation `ifLet`.
    let dismissal: Dismissal

    init(scope: NavigatedScope, dismissal: Dismissal) {
      self.scope = scope
      self.dismissal = dismissal
    }
  }

  fileprivate enum Dismissal: Sendable {
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

  /// Whether this is the context outside any store: no runtime, no navigated feature.
  var isRoot: Bool {
    runtime == nil && feature == nil
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

  /// Runs `reduction`, a reducer, synchronously with this as the current context.
  func reduce(_ reduction: () -> Void) {
    withUnsafePointer(to: self) { Self.reducing.withValue($0, reduction) }
  }

  /// Runs a store's reducer in the store's root context, with the store's dependencies.
  ///
  /// - Parameters:
  ///   - runtime: The store's effects, which navigation operators reach through the context.
  ///   - dependencies: The store's dependencies.
  ///   - reduction: Runs the reducer.
  static func reduceAtRoot(
    runtime: EffectRuntime,
    dependencies: DependencyValues,
    _ reduction: () -> Void
  ) {
    ReducerContext(runtime: runtime).reduce {
      DependencyValues.$_current.withValue(dependencies, operation: reduction)
    }
  }

  /// The context of a navigated child: its own scope and, when its parent can dismiss it (a
  /// stack element, a presentation), the scope `dismiss()` ends.
  func entering(_ child: NavigatedScope, isDismissable: Bool) -> Self {
    var context = self
    context.feature = RunningFeature(
      scope: child,
      dismissal: isDismissable ? .runningFeature : inheritedDismissal
    )
    return context
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

  /// What an effect keeps of the context it was created in: the navigation, not the store's
  /// runtime (an effect outlives the reduction, and its task is given the runtime it runs on).
  struct Escaped: Sendable {
    fileprivate let feature: RunningFeature?

    /// Whether it is the root context, which a task has unless it binds or inherits another.
    var isRoot: Bool {
      feature == nil
    }
  }

  /// What an effect created here keeps.
  var escaping: Escaped {
    Escaped(feature: feature)
  }

  /// The context an effect kept, as its task binds it.
  init(_ escaped: Escaped) {
    self.runtime = nil
    self.feature = escaped.feature
  }

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
  let context: ReducerContext.Escaped

  /// The environment of the running code, without its store's runtime.
  @usableFromInline
  static func current() -> Self {
    Self(dependencies: DependencyValues._current, context: ReducerContext.current.escaping)
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

  /// Whether the store's walk over `effect` binds the store's dependencies around it, so that
  /// every task it creates inherits them: when it creates a task at all (the navigation
  /// operators' own effects, on every push and pop, create none).
  static func bindsDependencies<Action>(aroundWalkOf effect: Effect<Action>) -> Bool {
    !effect.isSynchronous
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
      await ReducerContext.$inTask.withValue(ReducerContext(environment.context)) {
        await EffectRuntime.perform(run, send: send, origin: origin)
      }
    case .dependencies:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await EffectRuntime.perform(run, send: send, origin: origin)
      }
    case .dependenciesAndContext:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await ReducerContext.$inTask.withValue(ReducerContext(environment.context)) {
          await EffectRuntime.perform(run, send: send, origin: origin)
        }
      }
    }
  }
}
