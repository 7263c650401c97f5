import Foundation
import PostgresTestServer
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A port on the loopback interface whose connections a test's `serve` handles, for a server
/// that PostgreSQL's clients meet but that is no PostgreSQL: one that answers in another
/// protocol, or one that takes a connection and says nothing.
///
/// ```swift
/// let port = try LoopbackPort { client, number in number > 1 }  // the first ends at once
/// defer { port.stop() }
/// ```
final class LoopbackPort: @unchecked Sendable {
  // NB: Unchecked: `descriptor` and `port` are set once, before the thread starts, and the
  // clients kept open are behind a mutex.
  let port: Int
  private let descriptor: Int32
  private let kept = Mutex<[Int32]>([])

  /// Listens on a free port, and gives each connection, numbered from 1, to `serve` on the
  /// port's own thread, which says whether to keep it open until ``stop()``; if not, the port
  /// closes it.
  init(serve: @escaping @Sendable (_ client: Int32, _ number: Int) -> Bool) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let descriptor = self.descriptor
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 8) == 0
          && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else { throw TestServerError("listening on loopback failed: errno \(errno)") }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread {
      var number = 0
      while true {
        let client = accept(descriptor, nil, nil)
        guard client >= 0 else { return }
        number += 1
        if serve(client, number) {
          self.kept.withLock { $0.append(client) }
        } else {
          close(client)
        }
      }
    }.start()
  }

  /// Stops listening, and ends every connection `serve` left open.
  func stop() {
    shutdown(descriptor, Int32(SHUT_RDWR))
    close(descriptor)
    for client in kept.withLock({ $0 }) { close(client) }
  }
}
