import Composable
import Dependencies
import Foundation
import Testing

struct DependencyIdentityTests {
  @Test func dependencyValuesHaveTheLayoutTheComparisonAssumes() {
    // If swift-dependencies changes `DependencyValues` so that this fails, the comparison
    // answers "not identical" for every pair and every effect's task binds its dependencies:
    // still correct, only slower. Look at the new layout before relying on it again.
    #expect(DependencyIdentity.layoutIsAsAssumed)
  }

  @Test func aCopyIsIdentical() {
    let dependencies = DependencyValues._current
    let copy = dependencies
    #expect(DependencyIdentity.areIdentical(dependencies, copy))
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

    #expect(!DependencyIdentity.areIdentical(dependencies, DependencyValues._current))
    #expect(!DependencyIdentity.areIdentical(dependencies, sameValueAgain))
    #expect(!DependencyIdentity.areIdentical(dependencies, overriddenInPlace))
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

    #expect(DependencyIdentity.isMadeOfReferences(References()))
    #expect(!DependencyIdentity.isMadeOfReferences(WithACount()))
    #expect(!DependencyIdentity.isMadeOfReferences(WithAnOptionalReference()))
    #expect(!DependencyIdentity.isMadeOfReferences(0))
  }
}
