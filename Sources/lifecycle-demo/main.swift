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
// program links, the routes they serve and the interceptors. No list is written by hand; not even the
// subcommands, which are routes (`lifecycle-demo --help` lists them).
exit(
    await LifecycleDemo.main(
        arguments: Array(CommandLine.arguments.dropFirst()),
        console: DemoConsole(echo: true),
        manifest: .discovered
    )
)
