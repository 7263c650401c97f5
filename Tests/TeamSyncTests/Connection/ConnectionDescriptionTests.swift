import TeamSync
import Testing

struct ConnectionDescriptionTests {
  @Test func aFullURLNamesEveryPart() throws {
    let server = try ConnectionDescription(
      url: "postgresql://alice@db.example.com:6543/standups?sslmode=verify-full",
      environment: ["HOME": "/home/alice"]
    )
    #expect(server.endpoint == .tcp(host: "db.example.com", port: 6543))
    #expect(server.user == "alice")
    #expect(server.database == "standups")
    #expect(server.sslMode == .verifyFull)
    #expect(
      server.transportSecurity
        == .requiredVerified(trusting: "/home/alice/.postgresql/root.crt", checkingHostName: true))
  }

  @Test func whatTheURLLeavesOutComesFromTheEnvironmentThenLibpqsDefaults() throws {
    let fromEnvironment = try ConnectionDescription(
      url: "postgres://",
      environment: [
        "PGHOST": "db", "PGPORT": "5444", "PGUSER": "bob", "PGDATABASE": "team",
        "PGSSLMODE": "require",
      ]
    )
    #expect(fromEnvironment.endpoint == .tcp(host: "db", port: 5444))
    #expect(fromEnvironment.user == "bob")
    #expect(fromEnvironment.database == "team")
    #expect(fromEnvironment.sslMode == .require)

    let defaults = try ConnectionDescription(url: "postgresql://carol@", environment: [:])
    #expect(defaults.endpoint == .unixSocket(folder: "/var/run/postgresql", port: 5432))
    #expect(defaults.database == "carol")
    #expect(defaults.sslMode == .prefer)
  }

  @Test func aHostThatIsAFolderIsASocket() throws {
    let encoded = try ConnectionDescription(
      url: "postgresql://alice@%2Ftmp%2Fpg%20sockets:5433/standups", environment: [:])
    #expect(encoded.endpoint == .unixSocket(folder: "/tmp/pg sockets", port: 5433))

    let parameter = try ConnectionDescription(
      url: "postgresql://alice@/standups?host=/run/team&port=6000", environment: [:])
    #expect(parameter.endpoint == .unixSocket(folder: "/run/team", port: 6000))
  }

  @Test func queryParametersOverrideTheURLsParts() throws {
    let server = try ConnectionDescription(
      url: "postgresql://alice@one:1111/first?host=two&port=2222&user=bob&dbname=second",
      environment: [:])
    #expect(server.endpoint == .tcp(host: "two", port: 2222))
    #expect(server.user == "bob")
    #expect(server.database == "second")
  }

  @Test func anIPv6AddressIsBracketed() throws {
    let server = try ConnectionDescription(
      url: "postgresql://alice@[::1]:6543/standups", environment: [:])
    #expect(server.endpoint == .tcp(host: "::1", port: 6543))
  }

  @Test(
    arguments: [
      ("disable", ConnectionDescription.TransportSecurity.none),
      ("allow", .preferred),
      ("prefer", .preferred),
      ("require", .requiredUnverified),
      ("verify-ca", .requiredVerified(trusting: "/certs/team.pem", checkingHostName: false)),
      ("verify-full", .requiredVerified(trusting: "/certs/team.pem", checkingHostName: true)),
    ]
  )
  func eachSSLModeAsksTLSForWhatLibpqDoesOrMore(
    mode: String, security: ConnectionDescription.TransportSecurity
  ) throws {
    let server = try ConnectionDescription(
      url: "postgresql://alice@db/standups?sslmode=\(mode)&sslrootcert=/certs/team.pem",
      environment: [:])
    #expect(server.transportSecurity == security)
  }

  @Test func aSocketSpeaksNoTLSWhateverTheMode() throws {
    let server = try ConnectionDescription(
      url: "postgresql://alice@%2Frun%2Fteam/standups?sslmode=verify-full", environment: [:])
    #expect(server.transportSecurity == .none)
  }

  @Test(
    arguments: [
      ("https://db/standups", ConnectionProblem.notPostgresURL("https://db/standups")),
      ("postgresql://alice:secret@db/standups", .passwordInURL),
      ("postgresql://alice@db/standups?password=secret", .passwordInURL),
      ("postgresql://alice@db:99999/standups", .badPort("99999")),
      ("postgresql://alice@db:54x/standups", .badPort("54x")),
      ("postgresql://alice@db/standups?sslmode=always", .unknownSSLMode("always")),
      ("postgresql://alice@db/standups?sslcert=/me.pem", .unsupportedParameter("sslcert")),
      ("postgresql://alice@one,two/standups", .severalHosts("one,two")),
      ("postgresql://alice@db/stand%zzups", .badPercentEncoding("stand%zzups")),
    ]
  )
  func aURLThisAppCannotUseIsRefusedWithASentence(url: String, problem: ConnectionProblem) {
    #expect(throws: problem) {
      try ConnectionDescription(url: url, environment: ["PGUSER": "alice"])
    }
    #expect(problem.description.hasSuffix("."))
  }
}
