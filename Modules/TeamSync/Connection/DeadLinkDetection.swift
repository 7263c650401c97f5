import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How both ends of a connection to the team's server notice that the link between them has
/// gone quiet (a cable pulled, a laptop moved out of the Wi-Fi): within seconds, where the
/// kernel's defaults take minutes for data in flight and two hours for an idle connection.
///
/// Why both ends: this machine must say "offline" and try again, and the server must end the
/// session it can no longer answer, so that a transaction a cut push left open ends.
///
/// - This machine's socket: TCP keepalive probes after `idle` without traffic, every
///   `interval`, and `TCP_USER_TIMEOUT` `unacknowledged`: the kernel ends the connection
///   when what it sent (data or probes) is unacknowledged that long. A push cut in the middle
///   and an idle `LISTEN` both fail within it.
/// - The server's session, as startup parameters: the same keepalives and user timeout on its
///   socket, `idle_in_transaction_session_timeout` for a transaction whose client went away
///   between statements, and `statement_timeout` so that no statement of a round can run on
///   unnoticed.
///
/// Invariant: a live link, however slow, acknowledges what it is sent within `unacknowledged`
/// (a few round trips); only a dead one does not. Guarded by `PartitionTests`, which cut a real
/// link between network namespaces.
///
/// ```swift
/// let channel = try await DeadLinkDetection.connect(host: "db.example.com", port: 5432,
///                                                   timeout: .seconds(10))
/// ```
public enum DeadLinkDetection {
  /// Quiet this long, a connection sends its first keepalive probe.
  static let idle = 3
  /// Then a probe this often.
  static let interval = 1
  /// Unanswered probes before the kernel gives up; the user timeout usually ends it first.
  static let probes = 3
  /// Milliseconds sent data may stay unacknowledged before the connection ends.
  static let unacknowledged = 6_000
  /// The longest a statement of a round may run on the server.
  static let statementTimeout = "60s"
  /// The longest the server keeps a transaction whose client said nothing more.
  static let idleTransactionTimeout = "20s"
  /// The longest this machine waits for a word from a server it has asked something: the server
  /// answers at once, if only with the first rows, unless it is stopped or stuck (a process
  /// stopped, the host still acknowledging what is sent, so that keepalives never fire).
  public static let answerLimit = Duration.seconds(8)

  /// Connects a TCP socket with this machine's side of the detection set, and, unless
  /// `answerLimit` is `nil`, a watch for a server that stops answering (``AnswerWatch``), which
  /// marks `verdict` when it ends the connection.
  static func connect(
    host: String, port: Int, timeout: TimeAmount, answerLimit: Duration?, verdict: Verdict
  ) async throws -> any Channel {
    var bootstrap = ClientBootstrap(group: PostgresConnection.defaultEventLoopGroup)
      .connectTimeout(timeout)
      .channelInitializer { channel in
        guard let answerLimit else { return channel.eventLoop.makeSucceededVoidFuture() }
        return channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(
            AnswerWatch(limit: answerLimit, verdict: verdict))
        }
      }
      .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
      .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
    #if canImport(Glibc)
      for (option, value) in [
        (TCP_KEEPIDLE, idle), (TCP_KEEPINTVL, interval), (TCP_KEEPCNT, probes),
        (TCP_USER_TIMEOUT, unacknowledged),
      ] {
        bootstrap = bootstrap.channelOption(
          ChannelOptions.tcpOption(NIOBSDSocket.Option(rawValue: Int32(option))),
          value: SocketOptionValue(value))
      }
    #endif
    return try await bootstrap.connect(host: host, port: port).get()
  }

  /// The server's side: settings for the session, sent in the startup message.
  static let sessionParameters: [(String, String)] = [
    ("tcp_keepalives_idle", String(idle)),
    ("tcp_keepalives_interval", String(interval)),
    ("tcp_keepalives_count", String(probes)),
    ("tcp_user_timeout", String(unacknowledged)),
    ("idle_in_transaction_session_timeout", idleTransactionTimeout),
    ("statement_timeout", statementTimeout),
  ]
}

extension DeadLinkDetection {
  /// What a connection ends with when the server answered nothing for ``answerLimit``.
  struct NoAnswer: Error {}

  /// Whether this machine ended a connection because its server said nothing (``AnswerWatch``),
  /// which the connection's close does not tell: a caller that sees it close says "no answer",
  /// not that the server closed it. Guarded by `StatusTests`, whose command meets a server
  /// whose processes are stopped.
  final class Verdict: Sendable {
    private let rang = Atomic(false)

    /// Marks the connection as ended for want of an answer.
    func serverSaidNothing() {
      rang.store(true, ordering: .sequentiallyConsistent)
    }

    /// Why the connection closed: ``NoAnswer`` when the watch ended it, else the server did.
    var whyClosed: any Error {
      rang.load(ordering: .sequentiallyConsistent) ? NoAnswer() : ServerClosedTheConnection()
    }
  }

  /// Ends a connection whose server has sent nothing for ``answerLimit`` since this machine
  /// sent it something: a server process that is stopped (`SIGSTOP`) or stuck leaves its host
  /// acknowledging every packet, so neither keepalives nor the user timeout ever fire, and the
  /// statement would wait forever.
  ///
  /// Invariant: a server that runs answers each statement of a round within seconds, if only
  /// with its first rows; nothing of a round waits on the server longer (`statement_timeout`
  /// bounds the rest). An idle connection that has sent nothing (`LISTEN`) is not watched; the
  /// engine asks the server something every few seconds instead. Guarded by
  /// `TeamSyncEngineTests`' stopped-server test, which stops the server's processes.
  final class AnswerWatch: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private let limit: Duration
    private let verdict: Verdict
    /// Rings when the server has sent nothing since this machine's first write after its last
    /// word.
    private var alarm: Scheduled<Void>?

    init(limit: Duration, verdict: Verdict) {
      self.limit = limit
      self.verdict = verdict
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      alarm?.cancel()
      alarm = nil
      context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
      if alarm == nil {
        let waiting = NIOLoopBound(context, eventLoop: context.eventLoop)
        let (seconds, attoseconds) = limit.components
        alarm = context.eventLoop.scheduleTask(
          in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        ) { [verdict] in
          verdict.serverSaidNothing()
          waiting.value.fireErrorCaught(NoAnswer())
          waiting.value.close(promise: nil)
        }
      }
      context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
      alarm?.cancel()
      alarm = nil
      context.fireChannelInactive()
    }
  }
}
