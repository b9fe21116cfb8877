import DemoModules

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let status = await LifecycleDemo.run(console: DemoConsole(echo: true))
exit(status)
