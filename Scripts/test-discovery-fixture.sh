#!/usr/bin/env bash
# End-to-end test of module discovery, on a copy of Tests/Fixtures/DiscoveryFixture: an adopter's package
# with two feature libraries and a host, depending on this repository by path.
#  1. The host sees exactly the expected modules, in the expected order.
#  2. Adding a module file makes it appear, with nothing else edited.
#  3. A no-change rebuild recompiles nothing. Touching a file reruns discovery in its own target only; an edit
#     that moves lines reruns it in the host too; a change to a declaration another target reads reruns it
#     there, and a module conforming through it is discovered.
#  4. Checked-in mode: write-module-manifest writes the manifest; the completeness and staleness tests pass.
#  5. A module added without regenerating: the staleness check fails with the exact command, and the
#     completeness check fails naming the missing type.
#  6. Services: a required service that no linked module provides is a build warning at the declaration.
#  7. Messages: the generated manifest lists the receivers (direct and through an extension) for
#     withMessages(receivers:), and the host's bus delivers to them.
#  8. Routing: the generated manifest lists the route-serving module and the interceptor (through an
#     extension) for withRouting(servers:interceptors:), and the host opens a URL through both.
#  9. Route patterns: a pattern that cannot match and two routes of one pattern fail the build, with an
#     error at each pattern's line.
# 10. Scopes: a global scope action declared in a target of its own (and nothing else there) is listed for
#     withScopes(discovered:), the host's manifest includes that target, and a request scope's events reach
#     the action; a private action fails the build with an error at its line.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap '[ -n "${KEEP_FIXTURE:-}" ] || rm -rf "$work"' EXIT
ln -s "$repo" "$work/ModuleLifecycle"
cp -R "$repo/Tests/Fixtures/DiscoveryFixture" "$work/Fixture"
cd "$work/Fixture"

check() {  # check DESCRIPTION EXPECTED ACTUAL
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"
        exit 1
    fi
    echo "ok: $1"
}

echo "== build (first build compiles the package and its dependency)"
swift build > "$work/build1.log" 2>&1 || { cat "$work/build1.log"; echo "FAIL: the fixture does not build"; exit 1; }
grep -q "Recommendations.swift:15: warning: \`HiddenModule\` conforms to LifecycleModule but cannot be registered" "$work/build1.log" ||
    { echo "FAIL: no warning for the private conformer"; exit 1; }
echo "ok: the private conformer is reported with file:line"

run_host() { swift run --skip-build FixtureHost 2>/dev/null; }

# Manifest order: dependencies by module name, then the host; within a module, file path then line.
expected_entries="entry FeatureA.AnalyticsModule
entry FeatureA.BaseService
entry FeatureA.SearchModule
entry FeatureA.Payments.Gateway
entry FeatureA.DebugMenuModule
entry FeatureB.RecommendationsModule
entry FeatureB.AuditService
entry FixtureHost.HostModule"
# RecommendationsModule (10100) depends on SearchModule (10000): it comes right after it, not before.
expected_order="order FixtureHost.HostModule
order FeatureA.SearchModule
order FeatureB.RecommendationsModule
order FeatureA.Payments.Gateway
order FeatureA.AnalyticsModule
order FeatureA.BaseService
order FeatureB.AuditService
order FeatureA.DebugMenuModule"
output=$(run_host)
check "the host sees exactly the expected modules" "$expected_entries" "$(grep '^entry' <<<"$output")"
check "in the expected order (dependencies, priority, then manifest order)" "$expected_order" "$(grep '^order' <<<"$output")"
check "the host launches and terminates" "state terminated" "$(grep '^state' <<<"$output")"

echo "== add a module file, edit nothing else"
cat > Sources/FeatureB/Notifications.swift <<'SWIFT'
import LifecycleCore

struct NotificationsModule: LifecycleModule {
    static let priority: ModulePriority = .high + 1
    init(context: LifecycleContext) {}
}
SWIFT
swift build > "$work/build2.log" 2>&1 || { cat "$work/build2.log"; echo "FAIL: rebuild"; exit 1; }
output=$(run_host)
check "the new module is discovered" "order FixtureHost.HostModule
order FeatureB.NotificationsModule" "$(grep '^order' <<<"$output" | head -2)"

echo "== no-change rebuild"
swift build > "$work/build3.log" 2>&1 || { cat "$work/build3.log"; echo "FAIL: rebuild"; exit 1; }
# SwiftPM prints "Compiling plugin …" on every build while it checks its plugin cache; sources and the
# generator are what must not run again.
compiled=$(grep "Compiling" "$work/build3.log" | grep -vc "Compiling plugin" || true)
check "a no-change rebuild compiles no source" "0" "$compiled"
regenerated=$(grep -c "Discovering lifecycle modules" "$work/build3.log" || true)
check "a no-change rebuild does not rerun the generator" "0" "$regenerated"

echo "== incremental discovery: a dependent's discovery reruns only when what it reads changed"
reran() { sed -nE 's/.*Discovering lifecycle modules in (.*)$/\1/p' "$1" | sort | paste -sd' ' -; }
touch Sources/FeatureA/Search.swift
swift build > "$work/build3a.log" 2>&1 || { cat "$work/build3a.log"; echo "FAIL: rebuild"; exit 1; }
check "touching a file reruns discovery in its own target only" "FeatureA" "$(reran "$work/build3a.log")"
{ echo "// Moves every declaration below it down a line."; cat Sources/FeatureA/Search.swift; } > "$work/Search.swift"
mv "$work/Search.swift" Sources/FeatureA/Search.swift
swift build > "$work/build3b.log" 2>&1 || { cat "$work/build3b.log"; echo "FAIL: rebuild"; exit 1; }
check "an edit that moves lines reruns it in the host too (the summary has lines), not in FeatureB (the interface has none)" \
    "FeatureA FixtureHost" "$(reran "$work/build3b.log")"
cat > Sources/FeatureA/Late.swift <<'SWIFT'
public import LifecycleCore

public protocol LateProtocol: Sendable {}
SWIFT
cat > Sources/FeatureB/Late.swift <<'SWIFT'
import FeatureA
import LifecycleCore

struct LateModule: LateProtocol {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}
SWIFT
swift build > "$work/build3c.log" 2>&1 || { cat "$work/build3c.log"; echo "FAIL: rebuild"; exit 1; }
check "a type conforming to a protocol that does not refine LifecycleModule is no module" "" \
    "$(run_host | grep '^entry FeatureB.LateModule' || true)"
sed -i.bak 's/LateProtocol: Sendable/LateProtocol: LifecycleModule/' Sources/FeatureA/Late.swift && rm Sources/FeatureA/Late.swift.bak
swift build > "$work/build3d.log" 2>&1 || { cat "$work/build3d.log"; echo "FAIL: rebuild"; exit 1; }
check "a change to what FeatureA declares reruns discovery in FeatureB, which reads its interface" \
    "FeatureA FeatureB FixtureHost" "$(reran "$work/build3d.log")"
check "and FeatureB's module that conforms through it is discovered" "entry FeatureB.LateModule" \
    "$(run_host | grep '^entry FeatureB.LateModule')"
rm Sources/FeatureA/Late.swift Sources/FeatureB/Late.swift

echo "== checked-in mode"
swift package --allow-writing-to-package-directory write-module-manifest --target FeatureA
test -f Sources/FeatureA/ModuleManifest+FeatureA.swift
swift test > "$work/test1.log" 2>&1 || { cat "$work/test1.log"; echo "FAIL: fixture tests with a fresh manifest"; exit 1; }
echo "ok: completeness and staleness checks pass on a fresh checked-in manifest"

echo "== a module added without regenerating the checked-in manifest"
cat > Sources/FeatureA/Forgotten.swift <<'SWIFT'
import LifecycleCore

struct ForgottenModule: LifecycleModule {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}
SWIFT
if swift test > "$work/test2.log" 2>&1; then
    echo "FAIL: the fixture tests passed with a stale manifest"; exit 1
fi
grep -q "Run: swift package --allow-writing-to-package-directory write-module-manifest --target FeatureA" "$work/test2.log" ||
    { cat "$work/test2.log"; echo "FAIL: the staleness check did not name the command"; exit 1; }
echo "ok: the staleness check fails with the exact command"
grep -q "missing: FeatureA.ForgottenModule" "$work/test2.log" ||
    { cat "$work/test2.log"; echo "FAIL: the completeness check did not name the missing type"; exit 1; }
echo "ok: the completeness check fails naming the missing type"

echo "== services: a required service that no linked module provides"
# FeatureB gains LifecycleServices and a module that requires a service nobody provides.
sed -i.orig 's|dependencies: \["FeatureA", .product(name: "LifecycleCore", package: "ModuleLifecycle")\]|dependencies: ["FeatureA", .product(name: "LifecycleCore", package: "ModuleLifecycle"), .product(name: "LifecycleServices", package: "ModuleLifecycle")]|' Package.swift
grep -q 'name: "LifecycleServices"' Package.swift || { echo "FAIL: could not add LifecycleServices to FeatureB"; exit 1; }
cat > Sources/FeatureB/Dashboard.swift <<'SWIFT'
import LifecycleCore
import LifecycleServices
public protocol Metrics: Sendable {}
struct DashboardModule: LifecycleModule, ServiceRequiringModule {
    static let priority: ModulePriority = .low
    static let requiredServices = ServiceRequirements((any Metrics).self)
    init(context: LifecycleContext) {}
}
SWIFT
swift build > "$work/build4.log" 2>&1 || { cat "$work/build4.log"; echo "FAIL: the fixture with services does not build"; exit 1; }
grep -q "Dashboard.swift:6: warning: \`DashboardModule\` requires service \`Metrics\`, which no module linked into \`FixtureHost\` provides" "$work/build4.log" ||
    { cat "$work/build4.log"; echo "FAIL: no build warning for the missing provider"; exit 1; }
echo "ok: the missing provider is a build warning at the requirement"

echo "== messages: the generated manifest lists the receivers"
# FeatureB gains LifecycleMessaging: a receiver, a module that receives through an extension, and a sender
# that receives nothing. The dashboard goes: the service it requires would stop the host from starting.
rm Sources/FeatureB/Dashboard.swift
sed -i.orig 's|.product(name: "LifecycleServices", package: "ModuleLifecycle")\]|.product(name: "LifecycleServices", package: "ModuleLifecycle"), .product(name: "LifecycleMessaging", package: "ModuleLifecycle")]|' Package.swift
grep -q 'name: "LifecycleMessaging"' Package.swift || { echo "FAIL: could not add LifecycleMessaging to FeatureB"; exit 1; }
cat > Sources/FeatureB/Messages.swift <<'SWIFT'
import LifecycleCore
import LifecycleMessaging

struct Ping: Message {}

struct InboxModule: MessageReceiving {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { _, _, _ in print("received Ping in InboxModule") }
    }
}

struct LedgerModule: LifecycleModule {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
}

extension LedgerModule: MessageReceiving {
    static func receiveMessages(_ handlers: inout MessageHandlers<Self>) {
        handlers.on(Ping.self) { _, _, _ in print("received Ping in LedgerModule") }
    }
}

struct AnnouncerModule: LifecycleModule, DidFinishLaunching {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didFinishLaunching(_ context: LifecycleContext) throws -> Bool {
        let count = try context.messages(from: Self.self).broadcastSynchronously(Ping())
        print("broadcast Ping to \(count) receivers")
        return false
    }
}
SWIFT
swift build > "$work/build5.log" 2>&1 || { cat "$work/build5.log"; echo "FAIL: the fixture with messages does not build"; exit 1; }
generated=$(find .build -path '*ModuleDiscoveryPlugin/ModuleManifest+FeatureB.swift' | head -1)
[ -n "$generated" ] || { echo "FAIL: no generated manifest for FeatureB"; exit 1; }
check "the manifest adds the receivers with withMessages" "    ).withMessages(receivers: _lifecycleMessageReceivers_FeatureB())" "$(grep '^    )\.' "$generated")"
grep -qxF '        hooks.didFinishLaunching(module, synchronously: { try module.didFinishLaunching($0) })' "$generated" ||
    { cat "$generated"; echo "FAIL: AnnouncerModule's synchronous hook is not registered as a function"; exit 1; }
echo "ok: a synchronous hook is registered to be called without an await, without a Sync… protocol"
! grep -q "deprecated" "$work/build5.log" || { cat "$work/build5.log"; echo "FAIL: the build warns about a deprecation"; exit 1; }
check "the receivers, in manifest order, and only they" "private func _lifecycleMessageReceivers_FeatureB() -> [any MessageReceiving.Type] {
    var receivers: [any MessageReceiving.Type] = []
    receivers.append(InboxModule.self)
    receivers.append(LedgerModule.self)
    return receivers
}" "$(sed -n '/^private func _lifecycleMessageReceivers_FeatureB()/,/^}/p' "$generated")"
output=$(run_host) || { echo "FAIL: the host with messages does not run"; exit 1; }
check "the host's bus delivers to both receivers" "broadcast Ping to 2 receivers" "$(grep '^broadcast' <<<"$output")"

echo "== routing: the generated manifest lists the servers and the interceptors"
# FeatureB gains LifecycleRouting: a module that serves a route, an interceptor that adopts the protocol in an
# extension, and a module that opens a URL once the host has launched.
sed -i.orig 's|.product(name: "LifecycleMessaging", package: "ModuleLifecycle")\]|.product(name: "LifecycleMessaging", package: "ModuleLifecycle"), .product(name: "LifecycleRouting", package: "ModuleLifecycle")]|' Package.swift
grep -q 'name: "LifecycleRouting"' Package.swift || { echo "FAIL: could not add LifecycleRouting to FeatureB"; exit 1; }
cat > Sources/FeatureB/Reports.swift <<'SWIFT'
import Foundation
import LifecycleCore
import LifecycleRouting

struct ShowReport: Route {
    static let pattern: RoutePattern? = "app://reports/:day"
    typealias Result = String
    let day: Int
    init(parameters: RouteParameters) throws { day = try parameters.require("day", as: Int.self) }
}

struct ReportModule: RouteServing {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    static func serveRoutes(_ routes: inout RouteHandlers<Self>) {
        routes.on(ShowReport.self) { _, report, _ in "report for day \(report.day)" }
    }
}

struct AuditInterceptor {}

extension AuditInterceptor: RouteInterceptor {
    init(context: LifecycleContext) {}
    func intercept(_ intent: RouteIntent, context: RouteContext, decision: InterceptorDecision) async {
        print("intercepted by AuditInterceptor")
        decision.continue()
    }
}

struct ReaderModule: LifecycleModule, DidFinishLaunching {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        let result = try await context.router?.open(url: URL(string: "app://reports/7")!)
        print("opened \(result.map { "\($0)" } ?? "nothing")")
        return false
    }
}
SWIFT
swift build > "$work/build6.log" 2>&1 || { cat "$work/build6.log"; echo "FAIL: the fixture with routing does not build"; exit 1; }
generated=$(find .build -path '*ModuleDiscoveryPlugin/ModuleManifest+FeatureB.swift' | head -1)
check "the manifest adds the servers and the interceptors with withRouting" "    ).withMessages(receivers: _lifecycleMessageReceivers_FeatureB()).withRouting(servers: _lifecycleRouteServers_FeatureB(), interceptors: _lifecycleRouteInterceptors_FeatureB())" "$(grep '^    )\.' "$generated")"
check "the servers, and only they" "private func _lifecycleRouteServers_FeatureB() -> [any RouteServing.Type] {
    var servers: [any RouteServing.Type] = []
    servers.append(ReportModule.self)
    return servers
}" "$(sed -n '/^private func _lifecycleRouteServers_FeatureB()/,/^}/p' "$generated")"
check "the interceptor, which is not a module" "private func _lifecycleRouteInterceptors_FeatureB() -> [any RouteInterceptor.Type] {
    var interceptors: [any RouteInterceptor.Type] = []
    interceptors.append(AuditInterceptor.self)
    return interceptors
}" "$(sed -n '/^private func _lifecycleRouteInterceptors_FeatureB()/,/^}/p' "$generated")"
check "no module entry for the interceptor" "0" "$(grep -c 'DeclaredModule(AuditInterceptor' "$generated" || true)"
output=$(run_host) || { echo "FAIL: the host with routing does not run"; exit 1; }
check "the host opens the URL through the interceptor" "intercepted by AuditInterceptor
opened report for day 7" "$(grep -E '^(intercepted|opened)' <<<"$output")"

echo "== route patterns: an invalid pattern and a duplicate fail the build"
cat > Sources/FeatureB/ReportsByName.swift <<'SWIFT'
import LifecycleRouting

struct ReportByName: Route {
    static let pattern: RoutePattern? = "app://reports/:name"
    init(parameters: RouteParameters) throws {}
}

struct LatestReport: Route {
    static let pattern: RoutePattern? = "app://reports/**/latest"
    init(parameters: RouteParameters) throws {}
}
SWIFT
if swift build > "$work/build7.log" 2>&1; then
    cat "$work/build7.log"; echo "FAIL: the fixture built with a duplicate and an invalid pattern"; exit 1
fi
duplicate='error: routes `ShowReport` ("app://reports/:day") and `ReportByName` ("app://reports/:name") match the same inputs: a host that serves both refuses to start (duplicateRoute). Change one pattern (parameter names do not count), or serve both through one route.'
grep -qF "Reports.swift:6: $duplicate" "$work/build7.log" && grep -qF "ReportsByName.swift:4: $duplicate" "$work/build7.log" ||
    { cat "$work/build7.log"; echo "FAIL: no build error at both patterns of the duplicate"; exit 1; }
echo "ok: a duplicate pattern is a build error at each of its routes"
grep -qF 'ReportsByName.swift:9: error: `LatestReport`'"'"'s route pattern "app://reports/**/latest" has `**` before its last segment' "$work/build7.log" ||
    { cat "$work/build7.log"; echo "FAIL: no build error for the pattern that cannot match"; exit 1; }
echo "ok: a pattern that cannot match is a build error at its line"
rm Sources/FeatureB/ReportsByName.swift

echo "== scopes: a global scope action in a target of its own"
# A new library, Sessions, declares one global scope action (internal, through an extension) and no module;
# the host links it and gains a module that runs one request scope once the host has launched.
# LifecycleScopes is already built: LifecycleServices, which FeatureB links since the services step, uses it.
cat >> Package.swift <<'SWIFT'

// Added by the scopes step of Scripts/test-discovery-fixture.sh.
package.targets.append(
    .target(
        name: "Sessions",
        dependencies: [
            .product(name: "LifecycleCore", package: "ModuleLifecycle"),
            .product(name: "LifecycleScopes", package: "ModuleLifecycle"),
        ],
        plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
    )
)
for target in package.targets where target.name == "FixtureHost" {
    target.dependencies += ["Sessions", .product(name: "LifecycleScopes", package: "ModuleLifecycle")]
}
SWIFT
mkdir -p Sources/Sessions
cat > Sources/Sessions/RequestLog.swift <<'SWIFT'
import LifecycleCore
import LifecycleScopes

struct RequestLogAction {}

extension RequestLogAction: ScopeAction {
    static let kinds: ScopeKinds = [.request]
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
    func didBegin(_ scope: Scope) async throws { print("scope \(scope.name): begin") }
    func didActivate(_ scope: Scope) async throws { print("scope \(scope.name): activate") }
    func willDeactivate(_ scope: Scope) async throws { print("scope \(scope.name): deactivate") }
    func willEnd(_ scope: Scope) async throws { print("scope \(scope.name): end") }
}
SWIFT
cat > Sources/FixtureHost/Requests.swift <<'SWIFT'
import LifecycleCore
import LifecycleScopes

struct RequestModule: LifecycleModule, DidFinishLaunching {
    static let priority: ModulePriority = .low
    init(context: LifecycleContext) {}
    func didFinishLaunching(_ context: LifecycleContext) async throws -> Bool {
        guard let scopes = context.scopes else {
            print("scope actions: the host has no scopes")
            return false
        }
        print("scope actions: \(scopes.actions(for: .request).joined(separator: ", "))")
        try await scopes.withScope(.request, "GET /reports/7") { _ in print("scope GET /reports/7: body") }
        return false
    }
}
SWIFT
swift build > "$work/build8.log" 2>&1 || { cat "$work/build8.log"; echo "FAIL: the fixture with scopes does not build"; exit 1; }
generated=$(find .build -path '*ModuleDiscoveryPlugin/ModuleManifest+Sessions.swift' | head -1)
[ -n "$generated" ] || { echo "FAIL: no generated manifest for Sessions"; exit 1; }
check "the manifest adds the actions with withScopes" "    ).withScopes(discovered: _lifecycleScopeActions_Sessions())" "$(grep '^    )\.' "$generated")"
check "the action, which is not a module" "private func _lifecycleScopeActions_Sessions() -> [any ScopeAction.Type] {
    var actions: [any ScopeAction.Type] = []
    actions.append(RequestLogAction.self)
    return actions
}" "$(sed -n '/^private func _lifecycleScopeActions_Sessions()/,/^}/p' "$generated")"
check "no module entry for the action" "0" "$(grep -c 'DeclaredModule(RequestLogAction' "$generated" || true)"
host_manifest=$(find .build -path '*ModuleDiscoveryPlugin/ModuleManifest+FixtureHost.swift' | head -1)
check "the host's manifest includes the target of the action" "1" "$(grep -c '^            \.Sessions,' "$host_manifest" || true)"
output=$(run_host) || { echo "FAIL: the host with scopes does not run"; exit 1; }
check "the scope's events reach the discovered action" "scope actions: Sessions.RequestLogAction
scope GET /reports/7: begin
scope GET /reports/7: activate
scope GET /reports/7: body
scope GET /reports/7: deactivate
scope GET /reports/7: end" "$(grep '^scope' <<<"$output")"

echo "== scopes: an action the manifest cannot list fails the build"
cat > Sources/Sessions/Hidden.swift <<'SWIFT'
import LifecycleCore
import LifecycleScopes

private struct HiddenAction: ScopeAction {
    static let kinds: ScopeKinds = .all
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}
}
SWIFT
if swift build > "$work/build9.log" 2>&1; then
    cat "$work/build9.log"; echo "FAIL: the fixture built with a private scope action"; exit 1
fi
grep -qF 'Hidden.swift:4: error: `HiddenAction` conforms to ScopeAction but cannot be registered: it is private or fileprivate' "$work/build9.log" ||
    { cat "$work/build9.log"; echo "FAIL: no build error at the private scope action"; exit 1; }
echo "ok: a private scope action is a build error at its line"
rm Sources/Sessions/Hidden.swift

echo "== work: a working module in a target of its own"
# A new library, Workers, declares one module that owns work; the host links it, and its work starts once
# launch has completed and stops before willTerminate, with nothing listed by hand.
cat >> Package.swift <<'SWIFT'

// Added by the work step of Scripts/test-discovery-fixture.sh.
package.targets.append(
    .target(
        name: "Workers",
        dependencies: [
            .product(name: "LifecycleCore", package: "ModuleLifecycle"),
            .product(name: "LifecycleWork", package: "ModuleLifecycle"),
        ],
        plugins: [.plugin(name: "ModuleDiscoveryPlugin", package: "ModuleLifecycle")]
    )
)
for target in package.targets where target.name == "FixtureHost" {
    target.dependencies += ["Workers", .product(name: "LifecycleWork", package: "ModuleLifecycle")]
}
SWIFT
mkdir -p Sources/Workers
cat > Sources/Workers/Ticker.swift <<'SWIFT'
import LifecycleCore
import LifecycleWork

struct TickerModule: WorkingModule, WillTerminate {
    static let priority: ModulePriority = .normal
    init(context: LifecycleContext) {}

    static func declareWork(_ work: inout WorkList<Self>) {
        work.run("tick", reportsReadiness: true) { _, context in
            print("work tick: started")
            context.reportReady()
            await context.gracefulShutdown()
            print("work tick: stopped")
        }
    }

    func willTerminate(_ context: LifecycleContext) async throws { print("work hook: willTerminate") }
}
SWIFT
swift build > "$work/build-work.log" 2>&1 || { cat "$work/build-work.log"; echo "FAIL: the fixture with work does not build"; exit 1; }
generated=$(find .build -path '*ModuleDiscoveryPlugin/ModuleManifest+Workers.swift' | head -1)
[ -n "$generated" ] || { echo "FAIL: no generated manifest for Workers"; exit 1; }
check "the manifest adds the working module with withWork" "    ).withWork(workers: _lifecycleWorkWorkers_Workers())" "$(grep '^    )\.' "$generated")"
output=$(run_host) || { echo "FAIL: the host with work does not run"; exit 1; }
check "the work starts after launch and stops before willTerminate" "work tick: started
work tick: stopped
work hook: willTerminate" "$(grep '^work' <<<"$output")"

echo "== dependencies: a cycle among modules fails the build, before any test runs"
cat > Sources/FixtureHost/Cycle.swift <<'SWIFT'
import LifecycleCore

struct LedgerModule: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [InvoiceModule.self]
    init(context: LifecycleContext) {}
}

struct InvoiceModule: LifecycleModule, DependentModule {
    static let priority: ModulePriority = .normal
    static let dependencies: [any LifecycleModule.Type] = [LedgerModule.self]
    init(context: LifecycleContext) {}
}
SWIFT
if swift build > "$work/build10.log" 2>&1; then
    cat "$work/build10.log"; echo "FAIL: the fixture built with a dependency cycle"; exit 1
fi
grep -qF 'Cycle.swift:5: error: dependency cycle: InvoiceModule → LedgerModule → InvoiceModule.' "$work/build10.log" ||
    { cat "$work/build10.log"; echo "FAIL: no build error at the cycle"; exit 1; }
echo "ok: a dependency cycle is a build error at its first dependency, naming each step"
rm Sources/FixtureHost/Cycle.swift

echo "discovery fixture: all checks passed"
