import Dependencies
import Testing

@testable import Composable

/// What an effect's task binds: only what differs from what it inherits.
struct EffectTaskTests {
  let dependencies = DependencyValues._current

  func environment(
    dependencies: DependencyValues,
    context: ReducerContext = ReducerContext(runtime: nil)
  ) -> EffectEnvironment {
    EffectEnvironment(dependencies: dependencies, context: context)
  }

  @Test func aRunOfTheRootWithTheStoresDependenciesBindsNothing() {
    var inheritance = TaskInheritance(dependencies: dependencies)
    #expect(inheritance.binding(for: environment(dependencies: dependencies)) == nil)
  }

  @Test func aRunOfANavigatedChildBindsItsContext() {
    var inheritance = TaskInheritance(dependencies: dependencies)
    let child = NavigatedChild(
      parent: NavigationIDPath(),
      slot: HashableIdentity("stack"),
      element: StackElementID(integerLiteral: 0)
    )
    let context = ReducerContext(runtime: nil).entering(child, isDismissable: true)
    #expect(
      inheritance.binding(for: environment(dependencies: dependencies, context: context))
        == .context
    )
  }

  @Test func aRunWithOverriddenDependenciesBindsThem() {
    var inheritance = TaskInheritance(dependencies: dependencies)
    var overridden = dependencies
    overridden.stackElementID = .incrementing(from: 7)
    #expect(inheritance.binding(for: environment(dependencies: overridden)) == .dependencies)
  }
}
