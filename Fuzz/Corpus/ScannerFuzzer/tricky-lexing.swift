#if os(Linux) && !DEBUG
struct A: LifecycleModule { let s = #"raw "\(x)" string"# ; let r = /a+b*/ }
#elseif canImport(Darwin)
final class B<T>: Base, LifecycleModule where T: Sendable {}
#else
/* nested /* comment */ */ enum `C`: LifecycleModule { case x }
#endif
extension Outer.Inner: LifecycleModule, @unchecked Sendable {}
typealias Module = LifecycleModule & RouteServing
let multi = """
  struct Fake: LifecycleModule {}
  \(1 + 2)
  """
// module-discovery: ignore
struct Ignored: LifecycleModule {}
