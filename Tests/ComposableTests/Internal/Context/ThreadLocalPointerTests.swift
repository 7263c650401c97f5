import Composable
import ConcurrencyExtras
import Foundation
import Testing

struct ThreadLocalPointerTests {
  @Test func aValueIsSetOnlyWhileItsBodyRunsAndTheOneBeforeComesBack() {
    let slot = ThreadLocalPointer()
    var (outer, inner) = (1, 2)
    withUnsafePointer(to: &outer) { outerPointer in
      withUnsafePointer(to: &inner) { innerPointer in
        #expect(slot.value == nil)
        slot.withValue(outerPointer) {
          #expect(slot.value == UnsafeRawPointer(outerPointer))
          slot.withValue(innerPointer) {
            #expect(slot.value == UnsafeRawPointer(innerPointer))
          }
          #expect(slot.value == UnsafeRawPointer(outerPointer))
        }
        #expect(slot.value == nil)
      }
    }
  }

  @Test func anotherThreadSeesItsOwnValue() {
    let slot = ThreadLocalPointer()
    let seenElsewhere = LockIsolated<Bool?>(nil)
    var value = 1
    withUnsafePointer(to: &value) { pointer in
      slot.withValue(pointer) {
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          seenElsewhere.setValue(slot.value != nil)
          finished.signal()
        }
        finished.wait()
        #expect(slot.value == UnsafeRawPointer(pointer))
      }
    }
    #expect(seenElsewhere.value == false)
  }

  @Test func twoSlotsAreIndependent() {
    let (first, second) = (ThreadLocalPointer(), ThreadLocalPointer())
    var value = 1
    withUnsafePointer(to: &value) { pointer in
      first.withValue(pointer) {
        #expect(first.value == UnsafeRawPointer(pointer))
        #expect(second.value == nil)
      }
    }
  }
}
