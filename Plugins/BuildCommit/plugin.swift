import Foundation
import PackagePlugin

/// Records the git commit the checkout is at in ScreenplayCLI
/// (`BuildCommit.swift`), before every build, so `screenplay --version`
/// names the source it was built from. A prebuild command generating Swift
/// (SwiftPM here compiles no generated C) that needs only `sh` and, when it
/// is there, `git`: a build from a tarball says "unknown commit".
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let checkout = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [
            .prebuildCommand(
                displayName: "Recording the git commit for --version",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [checkout.appending(path: "scripts/build-commit.sh").path, checkout.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
