// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Standups",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "AppFeature", targets: ["AppFeature"]),
    .library(name: "Composable", targets: ["Composable"]),
    .library(name: "ComposableTestSupport", targets: ["ComposableTestSupport"]),
    .library(name: "MeetingFeature", targets: ["MeetingFeature"]),
    .library(name: "Models", targets: ["Models"]),
    .library(name: "Persistence", targets: ["Persistence"]),
    .library(name: "RecordMeeting", targets: ["RecordMeeting"]),
    .library(name: "SoundClient", targets: ["SoundClient"]),
    .library(name: "SpeechClient", targets: ["SpeechClient"]),
    .library(name: "StandupDetail", targets: ["StandupDetail"]),
    .library(name: "StandupForm", targets: ["StandupForm"]),
    .library(name: "StandupsList", targets: ["StandupsList"]),
    .library(name: "StandupsTerminal", targets: ["StandupsTerminal"]),
    .library(name: "StorageClient", targets: ["StorageClient"]),
    .library(name: "TeamSync", targets: ["TeamSync"]),
    .library(name: "TerminalUI", targets: ["TerminalUI"]),
    .executable(name: "standups", targets: ["standups"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(
      url: "https://github.com/ordo-one/benchmark",
      from: "1.38.1",
      traits: ["MallocInterposer"]
    ),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    .target(
      name: "AppFeature",
      dependencies: [
        "Composable",
        "MeetingFeature",
        "Models",
        "RecordMeeting",
        "StandupDetail",
        "StandupForm",
        "StandupsList",
        .casePaths,
        .dependencies,
        .issueReporting,
      ],
      path: "Modules/AppFeature"
    ),
    .target(
      name: "Composable",
      dependencies: [
        .casePaths,
        .concurrencyExtras,
        .customDump,
        .dependencies,
        .issueReporting,
        .orderedCollections,
      ],
      path: "Modules/Composable"
    ),
    .target(
      name: "ComposableTestSupport",
      dependencies: [
        "Composable",
        .casePaths,
        .concurrencyExtras,
        .customDump,
        .dependencies,
        .issueReporting,
        .issueReportingTestSupport,
      ],
      path: "Modules/ComposableTestSupport"
    ),
    .target(
      name: "MeetingFeature",
      dependencies: ["Composable", "Models", .casePaths, .dependencies],
      path: "Modules/MeetingFeature"
    ),
    .target(
      name: "Models",
      dependencies: [
        .identifiedCollections,
        .tagged,
      ],
      path: "Modules/Models"
    ),
    .target(
      name: "Persistence",
      dependencies: [
        "AppFeature",
        "Composable",
        "Models",
        "StorageClient",
        .casePaths,
        .dependencies,
        .identifiedCollections,
      ],
      path: "Modules/Persistence"
    ),
    .target(
      name: "RecordMeeting",
      dependencies: [
        "Composable",
        "Models",
        "SoundClient",
        "SpeechClient",
        .casePaths,
        .clocks,
        .dependencies,
      ],
      path: "Modules/RecordMeeting"
    ),
    .target(
      name: "SoundClient",
      dependencies: [.dependencies, .dependenciesMacros],
      path: "Modules/SoundClient"
    ),
    .target(
      name: "SpeechClient",
      dependencies: [.dependencies, .dependenciesMacros],
      path: "Modules/SpeechClient"
    ),
    .target(
      name: "StandupDetail",
      dependencies: [
        "Composable",
        "Models",
        "SpeechClient",
        .casePaths,
        .dependencies,
        .issueReporting,
      ],
      path: "Modules/StandupDetail"
    ),
    .target(
      name: "StandupForm",
      dependencies: ["Composable", "Models", .casePaths, .dependencies, .issueReporting],
      path: "Modules/StandupForm"
    ),
    .target(
      name: "StandupsList",
      dependencies: [
        "Composable",
        "Models",
        .casePaths,
        .identifiedCollections,
        .issueReporting,
      ],
      path: "Modules/StandupsList"
    ),
    .target(
      name: "StorageClient",
      dependencies: [
        "Models", .deque, .dependencies, .dependenciesMacros, .grdb, .identifiedCollections,
        .tagged,
      ],
      path: "Modules/StorageClient"
    ),
    .target(
      name: "StandupsTerminal",
      dependencies: [
        "AppFeature",
        "Composable",
        "MeetingFeature",
        "Models",
        "Persistence",
        "RecordMeeting",
        "SpeechClient",
        "StandupDetail",
        "StandupForm",
        "StandupsList",
        "SoundClient",
        "StorageClient",
        "TeamSync",
        "TerminalUI",
        .casePaths,
        .clocks,
        .concurrencyExtras,
        .dependencies,
        .identifiedCollections,
        .issueReporting,
        .tagged,
      ],
      path: "Modules/StandupsTerminal"
    ),
    .executableTarget(
      name: "standups",
      dependencies: ["StandupsTerminal", "StorageClient", "TerminalUI", .argumentParser],
      path: "Modules/standups"
    ),
    // NB: A team's standups meet on the team's PostgreSQL server; only this module talks to it.
    .target(
      name: "TeamSync",
      dependencies: [
        "Models", "StorageClient", .postgresNIO,
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Modules/TeamSync"
    ),
    .target(
      name: "TerminalUI",
      path: "Modules/TerminalUI"
    ),
    .target(
      name: "BenchmarkFixtures",
      dependencies: ["Composable", "Models", .casePaths, .dependencies, .identifiedCollections],
      path: "Benchmarks/Support/BenchmarkFixtures"
    ),
    // NB: Not directly under Benchmarks/, where package-benchmark runs every executable as a
    // benchmark.
    .executableTarget(
      name: "InstructionCounts",
      dependencies: ["BenchmarkFixtures", "Composable", .argumentParser],
      path: "Benchmarks/Support/InstructionCounts"
    ),
    .executableTarget(
      name: "LongTextWork",
      dependencies: ["Models", "StandupsTerminal", .identifiedCollections],
      path: "Benchmarks/Support/LongTextWork"
    ),
    .executableTarget(
      name: "TypingWork",
      dependencies: ["StandupsTerminal"],
      path: "Benchmarks/Support/TypingWork"
    ),
    // NB: The release build of the callgrind workloads above, made as package-benchmark's plugin
    // makes the benchmarks' (`swift package release-build PRODUCT...`), so that the two share
    // one release build (Benchmarks/callgrind.bash).
    .plugin(
      name: "ReleaseBuild",
      capability: .command(
        intent: .custom(
          verb: "release-build",
          description: "Build products in release as package-benchmark builds its benchmarks")
      ),
      path: "Benchmarks/Support/ReleaseBuild"
    ),
    .executableTarget(
      name: "StorageWork",
      dependencies: ["BenchmarkFixtures", "Models", "StorageClient"],
      path: "Benchmarks/Support/StorageWork"
    ),
    .executableTarget(
      name: "StandupsBenchmarks",
      dependencies: [
        "AppFeature",
        "BenchmarkFixtures",
        "Composable",
        "Models",
        "Persistence",
        "PostgresTestServer",
        "StandupDetail",
        "StandupsList",
        "StandupsTerminal",
        "StorageClient",
        "TeamSync",
        "TerminalUI",
        .product(name: "Benchmark", package: "benchmark"),
        .concurrencyExtras,
        .dependencies,
        .identifiedCollections,
        .postgresNIO,
      ],
      path: "Benchmarks/StandupsBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // NB: What the storage's, persistence's, executable's and team tests share: another program
    // on the database, and waits for other programs that hold none of the tests' threads.
    // Linked by tests only.
    .target(
      name: "StorageTestSupport",
      dependencies: ["Models", "StorageClient", .grdb, .tagged],
      path: "Tests/StorageTestSupport"
    ),
    .testTarget(
      name: "AppFeatureTests",
      dependencies: [
        "AppFeature",
        "Composable",
        "ComposableTestSupport",
        "MeetingFeature",
        "Models",
        "RecordMeeting",
        "SpeechClient",
        "StandupDetail",
        "StandupForm",
        "StandupsList",
        .casePaths,
        .clocks,
        .dependencies,
        .identifiedCollections,
        .issueReportingTestSupport,
      ],
      path: "Tests/AppFeatureTests"
    ),
    .testTarget(
      name: "AppSoakTests",
      dependencies: [
        "AppFeature",
        "Composable",
        "ComposableTestSupport",
        "MeetingFeature",
        "Models",
        "Persistence",
        "RecordMeeting",
        "SpeechClient",
        "StandupDetail",
        "StandupForm",
        "StandupsList",
        "StorageClient",
        .clocks,
        .concurrencyExtras,
        .dependencies,
        .issueReporting,
        .issueReportingTestSupport,
        .propertyBased,
      ],
      path: "Tests/AppSoakTests"
    ),
    .testTarget(
      name: "ComposableTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        .casePaths,
        .clocks,
        .concurrencyExtras,
        .dependencies,
        .issueReporting,
        .issueReportingTestSupport,
      ],
      path: "Tests/ComposableTests"
    ),
    .testTarget(
      name: "ComposableTestSupportTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        .casePaths,
        .clocks,
        .concurrencyExtras,
        .dependencies,
        .issueReporting,
        .issueReportingTestSupport,
      ],
      path: "Tests/ComposableTestSupportTests"
    ),
    .testTarget(
      name: "MeetingFeatureTests",
      dependencies: [
        "ComposableTestSupport",
        "MeetingFeature",
        "Models",
        "Composable",
        .issueReportingTestSupport,
      ],
      path: "Tests/MeetingFeatureTests"
    ),
    .testTarget(
      name: "ModelsTests",
      dependencies: [
        "Models", .dependencies, .identifiedCollections, .issueReportingTestSupport, .propertyBased,
      ],
      path: "Tests/ModelsTests",
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "NavigationPropertyTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        .casePaths,
        .concurrencyExtras,
        .dependencies,
        .issueReporting,
        .issueReportingTestSupport,
        .propertyBased,
      ],
      path: "Tests/NavigationPropertyTests"
    ),
    .testTarget(
      name: "PersistenceTests",
      dependencies: [
        "AppFeature",
        "Composable",
        "ComposableTestSupport",
        "Models",
        "MeetingFeature",
        "Persistence",
        "RecordMeeting",
        "SoundClient",
        "SpeechClient",
        "StandupDetail",
        "StandupForm",
        "StandupsList",
        "StorageClient",
        "StorageTestSupport",
        .clocks,
        .dependencies,
        .grdb,
        .identifiedCollections,
        .issueReportingTestSupport,
      ],
      path: "Tests/PersistenceTests"
    ),
    .testTarget(
      name: "RecordMeetingTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        "Models",
        "RecordMeeting",
        "SpeechClient",
        "StandupForm",
        .clocks,
        .concurrencyExtras,
        .dependencies,
        .identifiedCollections,
        .issueReportingTestSupport,
      ],
      path: "Tests/RecordMeetingTests"
    ),
    .testTarget(
      name: "SoundClientTests",
      dependencies: ["SoundClient", .dependencies, .issueReportingTestSupport],
      path: "Tests/SoundClientTests"
    ),
    .testTarget(
      name: "SpeechClientTests",
      dependencies: ["SpeechClient", .dependencies, .issueReportingTestSupport],
      path: "Tests/SpeechClientTests"
    ),
    .testTarget(
      name: "StandupDetailTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        "Models",
        "SpeechClient",
        "StandupDetail",
        .dependencies,
        .issueReportingTestSupport,
      ],
      path: "Tests/StandupDetailTests"
    ),
    .testTarget(
      name: "StandupFormTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        "Models",
        "StandupForm",
        .dependencies,
        .issueReportingTestSupport,
      ],
      path: "Tests/StandupFormTests"
    ),
    .testTarget(
      name: "StandupsListTests",
      dependencies: [
        "Composable",
        "ComposableTestSupport",
        "Models",
        "StandupsList",
        .issueReportingTestSupport,
      ],
      path: "Tests/StandupsListTests"
    ),
    .testTarget(
      name: "StorageFaultTests",
      dependencies: [
        "Models",
        "StandupsTerminal",
        "StorageClient",
        .grdb,
        .identifiedCollections,
        .issueReportingTestSupport,
        .propertyBased,
      ],
      path: "Tests/StorageFaultTests"
    ),
    .testTarget(
      name: "StorageClientTests",
      dependencies: [
        "StorageTestSupport",
        "Models",
        "StorageClient",
        .dependencies,
        .grdb,
        .identifiedCollections,
        .issueReportingTestSupport,
        .propertyBased,
      ],
      path: "Tests/StorageClientTests"
    ),
    .testTarget(
      name: "standupsTests",
      dependencies: [
        "StorageTestSupport",
        "Models", .grdb, .identifiedCollections, .issueReportingTestSupport, .snapshotTesting,
      ],
      path: "Tests/standupsTests",
      exclude: ["__Snapshots__"]
    ),
    .testTarget(
      name: "StandupsTerminalTests",
      dependencies: [
        "AppFeature",
        "Composable",
        "Models",
        "Persistence",
        "StandupsList",
        "StandupsTerminal",
        "StorageClient",
        "StorageTestSupport",
        "TeamSync",
        "TerminalUI",
        .clocks,
        .concurrencyExtras,
        .dependencies,
        .grdb,
        .issueReportingTestSupport,
        .snapshotTesting,
      ],
      path: "Tests/StandupsTerminalTests",
      exclude: ["Screens/__Snapshots__"]
    ),
    // NB: A throwaway PostgreSQL cluster, for the team sync tests and benchmarks.
    .target(
      name: "PostgresTestServer",
      dependencies: ["StorageTestSupport", "TeamSync", .postgresNIO],
      path: "Tests/PostgresTestServer"
    ),
    // NB: A member's edit on a machine of its own, for the team tests that run each machine as
    // processes.
    .executableTarget(
      name: "TeamMachine",
      dependencies: ["Models", "StorageClient", .identifiedCollections],
      path: "Tests/TeamMachine"
    ),
    .testTarget(
      name: "TeamSyncTests",
      dependencies: [
        "Models", "PostgresTestServer", "StorageClient", "StorageTestSupport", "TeamSync",
        .identifiedCollections, .postgresNIO, .propertyBased,
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Tests/TeamSyncTests"
    ),
    .testTarget(
      name: "TerminalUITests",
      dependencies: ["TerminalUI", .issueReportingTestSupport, .propertyBased],
      path: "Tests/TerminalUITests"
    ),
  ]
)

extension Target.Dependency {
  static let argumentParser = product(
    name: "ArgumentParser", package: "swift-argument-parser")
  static let casePaths = product(name: "CasePaths", package: "swift-case-paths")
  static let clocks = product(name: "Clocks", package: "swift-clocks")
  static let concurrencyExtras = product(
    name: "ConcurrencyExtras",
    package: "swift-concurrency-extras"
  )
  static let customDump = product(name: "CustomDump", package: "swift-custom-dump")
  static let dependencies = product(name: "Dependencies", package: "swift-dependencies")
  static let dependenciesMacros = product(
    name: "DependenciesMacros",
    package: "swift-dependencies"
  )
  static let grdb = product(name: "GRDB", package: "GRDB.swift")
  static let identifiedCollections = product(
    name: "IdentifiedCollections",
    package: "swift-identified-collections"
  )
  static let issueReporting = product(name: "IssueReporting", package: "xctest-dynamic-overlay")
  static let issueReportingTestSupport = product(
    name: "IssueReportingTestSupport",
    package: "xctest-dynamic-overlay"
  )
  static let postgresNIO = product(name: "PostgresNIO", package: "postgres-nio")
  static let propertyBased = product(name: "PropertyBased", package: "swift-property-based")
  static let deque = product(name: "DequeModule", package: "swift-collections")
  static let orderedCollections = product(
    name: "OrderedCollections",
    package: "swift-collections"
  )
  static let snapshotTesting = product(
    name: "SnapshotTesting", package: "swift-snapshot-testing")
  static let tagged = product(name: "Tagged", package: "swift-tagged")
}

// Settings shared by every target of this package (not by its dependencies): Swift 6 strict
// concurrency comes from `swiftLanguageModes`, and warnings fail the build.
for target in package.targets where target.type != .plugin {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .treatAllWarnings(as: .error),
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}

package.swiftLanguageModes = [.v6]
