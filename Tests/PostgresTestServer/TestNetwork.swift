import Foundation

/// A network of one test's own, for a server reached across links that fail: a network
/// namespace for the server, joined to this host by veth links (an address at each end), and
/// nftables rules in the namespace that cut a link or drop a share of its packets, silently, as
/// a pulled cable or a bad Wi-Fi does. ``withNetwork(links:_:)`` makes it and removes it.
///
/// Making namespaces needs root (`CAP_NET_ADMIN`), iproute2 and nftables; where they are
/// missing, ``unavailable`` says why, and the tests that need a network skip with that reason.
public struct TestNetwork: Sendable {
  /// One link between this host and the server's namespace.
  public struct Link: Sendable {
    /// Its interface in the server's namespace.
    public let serverSide: String
    /// The server's address on it: what a member's URL names to go over this link.
    public let serverAddress: String
    /// Which link it is: its chains in the namespace's rules end with it.
    let index: Int
  }

  /// The server's namespace.
  public let namespace: String
  /// The links: the first for the administrator, the others for members' machines.
  public let links: [Link]
  /// The addresses the server accepts logins from: this host's ends of the links.
  let clients: String

  /// Why no network can be made here, or `nil` when one can.
  public static let unavailable: String? = {
    guard geteuid() == 0 else {
      return "making network namespaces needs root (CAP_NET_ADMIN)"
    }
    for program in [ip, nft] where !FileManager.default.isExecutableFile(atPath: program) {
      return "\(program) is missing: install iproute2 and nftables"
    }
    let probe = "standups-probe-\(UUID().uuidString.prefix(8))"
    guard let made = try? runProgramOnThisThread(ip, ["netns", "add", probe]), made.status == 0
    else {
      return "ip netns add failed: network namespaces are not allowed here"
    }
    _ = try? runProgramOnThisThread(ip, ["netns", "del", probe])
    return nil
  }()

  /// Runs `body` with a new network of `count` links (at least 1), and removes it after.
  public static func withNetwork<Result>(
    links count: Int, _ body: (TestNetwork) async throws -> Result
  ) async throws -> Result {
    let network = try await make(links: count)
    do {
      let result = try await body(network)
      await network.remove()
      return result
    } catch {
      await network.remove()
      throw error
    }
  }

  private static func make(links count: Int) async throws -> TestNetwork {
    let suffix = UUID().uuidString.prefix(6).lowercased()
    // NB: One /24 of 10.231/16 for the test, a /30 in it for each link.
    let subnet = "10.231.\(Int.random(in: 1...254))"
    var network = TestNetwork(
      namespace: "standups-\(suffix)", links: [], clients: "\(subnet).0/24")
    try await run(ip, ["netns", "add", network.namespace])
    do {
      try await network.inside(ip, ["link", "set", "lo", "up"])
      try await network.inside(
        nft,
        [
          "add table inet standups; "
            + "add chain inet standups input { type filter hook input priority 0; }; "
            + "add chain inet standups output { type filter hook output priority 0; }"
        ])
      for index in 0..<count {
        let host = "sth\(suffix)\(index)"
        let link = Link(
          serverSide: "sts\(suffix)\(index)", serverAddress: "\(subnet).\(4 * index + 2)",
          index: index)
        try await run(ip, ["link", "add", host, "type", "veth", "peer", "name", link.serverSide])
        try await run(ip, ["link", "set", link.serverSide, "netns", network.namespace])
        try await run(ip, ["addr", "add", "\(subnet).\(4 * index + 1)/30", "dev", host])
        try await run(ip, ["link", "set", host, "up"])
        try await network.inside(
          ip, ["addr", "add", "\(link.serverAddress)/30", "dev", link.serverSide])
        try await network.inside(ip, ["link", "set", link.serverSide, "up"])
        try await network.inside(
          nft,
          [
            "add chain inet standups in\(index); add chain inet standups out\(index); "
              + "add rule inet standups input iifname \(link.serverSide) jump in\(index); "
              + "add rule inet standups output oifname \(link.serverSide) jump out\(index)"
          ])
        network = TestNetwork(
          namespace: network.namespace, links: network.links + [link], clients: network.clients)
      }
    } catch {
      await network.remove()
      throw error
    }
    return network
  }

  /// Drops every packet across `link`, both ways, without a word to either end.
  public func cut(_ link: Link) async throws {
    try await rules(link, "drop")
  }

  /// Drops `percent` of the packets the server sends across `link`, at random, as
  /// `tc qdisc … netem loss` on the server's end of it would.
  public func lose(_ percent: Int, on link: Link) async throws {
    try await rules(link, nil)
    try await inside(
      Self.nft,
      ["add rule inet standups out\(link.index) numgen random mod 100 < \(percent) drop"])
  }

  /// Lets everything across `link` again.
  public func heal(_ link: Link) async throws {
    try await rules(link, nil)
  }

  private func rules(_ link: Link, _ rule: String?) async throws {
    var commands: [String] = []
    for chain in ["in\(link.index)", "out\(link.index)"] {
      commands.append("flush chain inet standups \(chain)")
      if let rule { commands.append("add rule inet standups \(chain) \(rule)") }
    }
    try await inside(Self.nft, [commands.joined(separator: "; ")])
  }

  /// Removes the namespace, and with it its ends of the links, which takes the host's ends.
  private func remove() async {
    _ = try? await runProgram(Self.ip, ["netns", "del", namespace])
  }

  private func inside(_ program: String, _ arguments: [String]) async throws {
    try await Self.run(Self.ip, ["netns", "exec", namespace, program] + arguments)
  }

  private static func run(_ program: String, _ arguments: [String]) async throws {
    let output = try await runProgram(program, arguments)
    guard output.status == 0 else {
      throw TestServerError(
        "\(program) \(arguments.joined(separator: " ")) exited \(output.status): \(output.error)")
    }
  }

  private static let ip = "/usr/sbin/ip"
  private static let nft = "/usr/sbin/nft"
}
