/// The errors a request ends with, judged against the state the host is in when they are made.
extension ApplicationHost {
    func invalidTransition(_ request: HostRequest, _ file: String, _ line: Int) -> LifecycleError {
        LifecycleError(code: .invalidTransition, request: request, state: currentState, file: file, line: line)
    }

    func timedOut(
        _ request: HostRequest,
        _ failures: [HookFailure],
        _ file: String,
        _ line: Int
    )
        -> LifecycleError
    {
        LifecycleError(
            code: .timedOut,
            request: request,
            state: currentState,
            failures: failures,
            file: file,
            line: line
        )
    }

    func hookFailed(
        _ request: HostRequest,
        _ failures: [HookFailure],
        result: Bool?,
        _ file: String,
        _ line: Int
    ) -> LifecycleError {
        LifecycleError(
            code: .hookFailed,
            request: request,
            state: currentState,
            failures: failures,
            result: result,
            file: file,
            line: line
        )
    }
}
