import EarshotWyoming

extension WyomingLink {
    /// Runs `machine`'s conversation: each action goes to `perform`, which returns the answer once
    /// the conversation is over, and each input goes to the machine (the caller's own through
    /// `local`). The connection breaking, the response deadline passing and cancellation end the
    /// conversation: they are thrown, as ``WyomingClientFailure`` or `CancellationError`.
    func drive<Machine: WyomingConversationMachine, Answer>(
        _ machine: Machine,
        timeouts: WyomingTimeouts,
        local: (inout Machine, Local) -> Machine.Action,
        perform: (Machine.Action, Machine.State) async throws -> Answer?
    ) async throws -> Answer {
        var machine = machine
        deadline.arm(timeouts.response, awaiting: "its info")
        var action = machine.start()
        var inputs = self.inputs.makeAsyncIterator()
        while true {
            if let answer = try await perform(action, machine.state) { return answer }
            guard let input = await inputs.next() else { throw CancellationError() }
            let before = machine.state
            switch input {
            case .local(let value): action = local(&machine, value)
            case .event(let event): action = machine.eventReceived(event)
            case .serverClosed: action = machine.connectionClosed()
            case .broken(let failure): throw failure
            case .timedOut: throw deadline.expiry ?? .responseTimedOut(awaiting: "an answer", timeouts.response)
            }
            // Audio the caller hands over is no sign of the server, so only events and changes of
            // state restart the deadline.
            if !machine.isAwaitingServer {
                deadline.disarm()
            } else if machine.state != before || input.isEvent {
                deadline.arm(timeouts.response, awaiting: machine.awaitedAnswer)
            }
        }
    }
}

extension WyomingLink where Local == Never {
    func drive<Machine: WyomingConversationMachine, Answer>(
        _ machine: Machine,
        timeouts: WyomingTimeouts,
        perform: (Machine.Action, Machine.State) async throws -> Answer?
    ) async throws -> Answer {
        try await drive(machine, timeouts: timeouts, local: Self.noLocalInput, perform: perform)
    }

    /// Empty, as nothing can call it: there is no `Never` to pass.
    private static func noLocalInput<Machine: WyomingConversationMachine>(_: inout Machine, _: Never) -> Machine.Action {}
}
