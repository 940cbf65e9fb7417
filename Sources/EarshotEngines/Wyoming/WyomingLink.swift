import EarshotSpeech
import NIOCore

/// A conversation's view of its connection: what happens on it, in order, and a way to write.
struct WyomingLink<Local: Sendable> {
    let inputs: AsyncStream<WyomingInput<Local>>
    let deadline: ResponseDeadline
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Writes the events in one go; throws ``WyomingClientFailure`` (or `CancellationError`).
    func send(_ events: [WyomingEvent]) async throws {
        var bytes: [UInt8] = []
        for event in events { event.write(to: &bytes) }
        do {
            try await outbound.write(ByteBuffer(bytes: bytes))
        } catch {
            if let expiry = deadline.expiry { throw expiry }
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw WyomingClientFailure.connectionBroken(WyomingConnection.reason(error))
        }
    }
}

/// What happened on a connection, in the order it happened: the server's events and the
/// caller's own inputs (audio, for a transcription) merged into one stream.
enum WyomingInput<Local: Sendable>: Sendable {
    case event(WyomingEvent)
    /// The server closed the connection.
    case serverClosed
    case broken(WyomingClientFailure)
    /// The response deadline passed.
    case timedOut
    case local(Local)
}

extension WyomingInput {
    /// Whether the server sent an event: a sign of life that restarts the response deadline.
    var isEvent: Bool {
        if case .event = self { true } else { false }
    }
}

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

/// What ``WyomingLink/drive(_:timeouts:local:perform:)`` needs of a conversation's state machine.
protocol WyomingConversationMachine: Sendable {
    associatedtype State: Equatable
    associatedtype Action

    var state: State { get }
    /// Whether the server owes an answer, so a response deadline applies.
    var isAwaitingServer: Bool { get }
    /// What the server owes, for the message when it does not come in time.
    var awaitedAnswer: String { get }

    mutating func start() -> Action
    mutating func eventReceived(_ event: WyomingEvent) -> Action
    mutating func connectionClosed() -> Action
}

extension WyomingTranscriptionMachine: WyomingConversationMachine {
    var awaitedAnswer: String { state == .awaitingInfo ? "its info" : "the transcript" }
}

extension WyomingSynthesisMachine: WyomingConversationMachine {
    var awaitedAnswer: String { state == .awaitingInfo ? "its info" : "the audio" }
}
