import Dependencies
import Foundation
import Testing

@testable import Composable

struct DependencyValuesIdentityTests {
  @Test func dependencyValuesHaveTheLayoutTheComparisonAssumes() {
    // If swift-dependencies changes `DependencyValues` so that this fails, the comparison
    // answers "not identical" for every pair and every effect's task binds its dependencies:
    // still correct, only slower. Look at the new layout before relying on it again.
    #expect(DependencyValues.layoutIsAsAssumed)
  }

  @Test func aCopyIsIdentical() {
    let dependencies = DependencyValues._current
    let copy = dependencies
    #expect(dependencies.isIdentical(to: copy))
  }

  @Test func anOverrideIsNeverIdentical() {
    let dependencies = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      DependencyValues._current
    }
    let sameValueAgain = withDependencies {
      $0 = dependencies
      $0.uuid = .incrementing
    } operation: {
      DependencyValues._current
    }
    var overriddenInPlace = dependencies
    overriddenInPlace.date = .constant(Date(timeIntervalSince1970: 0))

    #expect(!dependencies.isIdentical(to: DependencyValues._current))
    #expect(!dependencies.isIdentical(to: sameValueAgain))
    #expect(!dependencies.isIdentical(to: overriddenInPlace))
  }

  @Test func aValueHoldingAnythingButReferencesFailsTheLayoutCheck() {
    final class Storage {}
    struct References {
      let storage = Storage()
      let values: [ObjectIdentifier: any Sendable] = [:]
    }
    struct WithACount {
      let storage = Storage()
      let count = 0
    }
    struct WithAnOptionalReference {
      let storage: Storage? = Storage()
    }

    #expect(DependencyValues.isMadeOfReferences(References()))
    #expect(!DependencyValues.isMadeOfReferences(WithACount()))
    #expect(!DependencyValues.isMadeOfReferences(WithAnOptionalReference()))
    #expect(!DependencyValues.isMadeOfReferences(0))
  }
}
