import DemoModules
import LifecycleCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `ModuleManifest.discovered` is generated at build time by ModuleDiscoveryPlugin: every module this
// program links. No module list is written by hand.
let console = DemoConsole(echo: true)
switch CommandLine.arguments.dropFirst().first {
case nil:
    exit(await LifecycleDemo.run(console: console, manifest: .discovered))
case "plan":
    exit(LifecycleDemo.plan(console: console, manifest: .discovered))
case "serve":
    // Runs until a signal ends it: see `LifecycleDemo.serve` for the options and Docs/Hosting.md.
    exit(await LifecycleDemo.serve(console: console, manifest: .discovered))
case let other?:
    print(
        "usage: lifecycle-demo [plan | serve [--signals MAP] [--terminate-deadline SECONDS]"
            + " [--slow-terminate SECONDS|forever]]   (unknown argument: \(other))"
    )
    exit(64)
}
