/// The host program's own application delegate: the "real" delegate that the proxy stands in front of.
///
/// The delegate adopts the same capability protocols as modules. It receives forward events before
/// every module and reverse events after every module. Unlike a module, the program creates it and hands
/// it to the host.
public protocol ApplicationDelegate: Sendable {}
