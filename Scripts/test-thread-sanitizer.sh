#!/usr/bin/env bash
# Runs the concurrency-heavy suites under Thread Sanitizer (Docs/Reliability.md).
#
# -DLIFECYCLE_TSAN swaps the package's one lock (Sources/LifecycleCore/Concurrency/Locked.swift) for a pthread mutex:
# the sanitizer cannot see inside Synchronization.Mutex on this toolchain and would report every access
# under it as a race. A separate scratch path keeps the instrumented build apart from the normal one.
set -euo pipefail
cd "$(dirname "$0")/.."

suites='ConcurrencyTests|StressTests|RegistrationTests|RegistrationWarmUpTests|RegistrationFailureTests'
suites+='|FaultInjectionTests|StageTests|TimeLimitTests|TerminationTests|HostRunnerTests|InterceptorTests|RoutingHostTests'
suites+='|ScopeAdoptionTests|ScopeStackTests|ScopeFailureTests|ScopeStateMachineTests|ScopeEdgeCaseTests|KeyedScopesTests'
suites+='|SystemdNotifierTests|QuarantineTests|ModuleSwitchingTests|ActivityTests|InstrumentTests'
suites+='|WatchdogTests|SupervisedTests|OneShotTests|WarmUpTimeLimitTests|SupervisedDeliveryTests|MessagingBudgetTests|ListenerTests'
suites+='|LifecycleWorkTests'
log=$(mktemp)
# TSAN_OPTIONS: a report fails the run (exit code 66) instead of only printing.
TSAN_OPTIONS="halt_on_error=1 exitcode=66" timeout 1800 swift test --sanitize=thread -Xswiftc -DLIFECYCLE_TSAN \
    --scratch-path .build-tsan --filter "$suites" 2>&1 | tee "$log"
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "Thread Sanitizer reported a race"
    exit 1
fi
echo "Thread Sanitizer: no race reported"
