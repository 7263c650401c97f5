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
final class LoopbackPort: Sendable {
  let port: Int
  private let descriptor: Int32
  /// The clients `serve` kept open, and whether ``stop()`` has run: a client accepted after it
  /// is closed at once, and a second stop closes nothing twice.
  private let clients = Mutex<(kept: [Int32], isStopped: Bool)>(([], false))

  /// Listens on a free port, and gives each connection, numbered from 1, to `serve` on the
  /// port's own thread, which says whether to keep it open until ``stop()``; if not, the port
  /// closes it.
  init(serve: @escaping @Sendable (_ client: Int32, _ number: Int) -> Bool) throws {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestServerError("no socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 8) == 0
          && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else {
      let problem = errno
      close(descriptor)
      throw TestServerError("listening on loopback failed: errno \(problem)")
    }
    self.descriptor = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread {
      // NB: The thread closes the listening socket once `accept` fails (``stop()`` shuts it
      // down): closed while `accept` still used it, its number could go to another test's file.
      defer { close(descriptor) }
      var number = 0
      while true {
        let client = accept(descriptor, nil, nil)
        guard client >= 0 else { return }
        number += 1
        let keep = serve(client, number)
        let isKept = self.clients.withLock { clients in
          guard keep, !clients.isStopped else { return false }
          clients.kept.append(client)
          return true
        }
        if !isKept { close(client) }
      }
    }.start()
  }

  /// Stops listening, and ends every connection `serve` left open.
  func stop() {
    let kept = clients.withLock { clients in
      clients.isStopped = true
      defer { clients.kept = [] }
      return clients.kept
    }
    shutdown(descriptor, Int32(SHUT_RDWR))
    for client in kept { close(client) }
  }
}
