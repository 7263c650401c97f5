import PackagePlugin

/// Builds the named products in release the way package-benchmark's command plugin builds the
/// benchmarks: through `packageManager.build` from `swift package`, so with `swift package`'s
/// build parameters (release products, the macros' host tools in debug, as `swift build` makes
/// them). `swift build -c release` builds those tools in release instead, which changes every
/// macro user's command line: swift-syntax and every module that uses a macro compile again.
///
///     swift package release-build StorageWork TypingWork
@main
struct ReleaseBuild: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    for product in arguments {
      let result = try packageManager.build(
        .product(product), parameters: .init(configuration: .release))
      guard result.succeeded else {
        throw BuildFailed(description: "Release build of \(product) failed:\n\(result.logText)")
      }
    }
  }
}

struct BuildFailed: Error, CustomStringConvertible {
  let description: String
}
