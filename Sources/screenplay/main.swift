import ScreenplayCLI

MainActor.assumeIsolated {
    ScreenplayTool.main(Array(CommandLine.arguments.dropFirst()))
}
