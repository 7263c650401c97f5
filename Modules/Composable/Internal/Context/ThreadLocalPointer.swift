#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#else
  #error("ThreadLocalPointer needs POSIX threads.")
#endif

/// A pointer that each thread sets and reads for itself: a POSIX thread-specific value, which
/// keeps the context of the reducer running on each thread (`ReducerContext`).
///
/// For state that lives exactly as long as a synchronous call on one thread, where binding a
/// task-local would cost far more than the call. Nothing is inherited: a task started inside
/// the call sees `nil`. Guarded by `ThreadLocalPointerTests`.
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
    // Setting a key that exists fails only when the thread's table cannot grow.
    let status = pthread_setspecific(key, pointer)
    precondition(status == 0, "pthread_setspecific failed with \(status)")
    defer { pthread_setspecific(key, previous) }
    body()
  }
}
