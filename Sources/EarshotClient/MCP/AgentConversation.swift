import EarshotBase
import EarshotProtocol

/// Runs `earshot mcp`'s tool calls against the daemon: each call opens its own connection,
/// claims the conversation (so a second agent gets a busy answer instead of talking over the
/// first), and performs what its ``AgentExchange`` asks until it finishes. The claim ends with
/// the call.
public struct AgentConversation: Sendable {
    public let socketPath: String
    /// Who is talking, for another agent's busy message: e.g. "claude-code 2.1 (earshot mcp, pid 4242)".
    public let holder: String
    /// The longest the daemon may stay silent while a message is said or a turn is under way.
    public var quietLimit: Duration = .seconds(120)

    public init(socketPath: String, holder: String) {
        self.socketPath = socketPath
        self.holder = holder
    }

    /// Runs `call`; `isCancelled` is asked between events (the client's `notifications/cancelled`).
    public func run(_ call: MCPToolCall, isCancelled: () -> Bool = { false }) -> MCPToolResult {
        do {
            let connection = try DaemonConnection.connect(path: socketPath)
            defer { connection.close() }
            switch call {
            case .status:
                let status = try connection.request(.status).status
                return MCPToolResult(text: StatusSummary.lines(status).joined(separator: "\n"), isError: false)
            case .converse(let message, let waitForResponse, let listenTimeout, let voice):
                let spoken = Spoken(text: message, voice: voice)
                return try exchange(on: connection, saying: spoken, listens: waitForResponse, timeout: listenTimeout, isCancelled: isCancelled)
            case .listen(let timeout):
                return try exchange(on: connection, saying: nil, listens: true, timeout: timeout, isCancelled: isCancelled)
            }
        } catch {
            return MCPToolResult(text: error.description, isError: true)
        }
    }

    struct Spoken {
        var text: String
        var voice: String?
    }

    private func exchange(
        on connection: DaemonConnection, saying spoken: Spoken?, listens: Bool, timeout: Double, isCancelled: () -> Bool
    ) throws(ClientError) -> MCPToolResult {
        try connection.request(.claim(holder: holder))
        defer { _ = try? connection.request(.unclaim) }
        let status = try connection.request(.status).status
        if let problem = Self.unableToConverse(status, speaks: spoken != nil, listens: listens) {
            return MCPToolResult(text: problem, isError: true)
        }
        try connection.subscribe(to: [.state, .speech, .transcript, .speaker, .error])
        var voice = status.state
        if voice?.phase == .idle { voice = try connection.request(.start).state }

        // Listening while the person is already speaking hears the turn under way.
        let hearingTurn = voice?.phase == .hearing ? voice?.turn : nil
        var exchange = AgentExchange(saying: spoken != nil, listens: listens, hearingTurn: hearingTurn)
        let listenTime = Duration.milliseconds(Int64(timeout * 1000))
        var listenDeadline: ContinuousClock.Instant?
        if let spoken {
            // A turn waiting for an answer gets the message as its answer; otherwise it is said unprompted.
            let answering = voice?.phase == .thinking ? voice?.turn : nil
            try connection.request(.speak(text: spoken.text, voice: spoken.voice, turn: answering))
        } else if hearingTurn == nil {
            listenDeadline = .now + listenTime
        }
        var lastHeard = ContinuousClock.now
        while true {
            if isCancelled() {
                // The agent gave up on its message: it stops playing too.
                if case .saying = exchange.state { _ = try? connection.request(.stop) }
                return MCPToolResult(text: "Cancelled by the client.", isError: true)
            }
            // Short waits, so a cancellation is noticed within a tenth of a second.
            let next = try connection.nextEvent(timeout: .milliseconds(100))
            let action: AgentExchange.Action
            if let next {
                lastHeard = .now
                guard let event = next.event else { continue }
                action = exchange.eventReceived(event)
            } else if let deadline = listenDeadline {
                guard ContinuousClock.now >= deadline else { continue }
                action = exchange.listenTimedOut(seconds: timeout)
            } else {
                guard ContinuousClock.now - lastHeard > quietLimit else { continue }
                return MCPToolResult(text: "The Earshot daemon reported nothing for \(quietLimit) while \(exchange.state.doing); giving up.", isError: true)
            }
            switch action {
            case .wait: continue
            case .startListenTimer: listenDeadline = .now + listenTime
            case .stopListenTimer: listenDeadline = nil
            case .finish(let outcome): return outcome.toolResult
            }
        }
    }

    /// Why the daemon cannot hold this exchange, in words; `nil` when it can.
    static func unableToConverse(_ status: DaemonStatus, speaks: Bool, listens: Bool) -> String? {
        if status.audio?.connected == false {
            return "No microphone or speaker: the Earshot daemon is not connected to the sound server (it keeps retrying). "
                + "Check that PulseAudio or PipeWire is running; `earshot devices` lists what it sees."
        }
        if listens, status.state?.muted == true {
            return "The person's microphone is muted in Earshot, so their answer cannot be heard. They can unmute it (`earshot unmute`, or the mute button)."
        }
        if speaks, status.state?.phase == .hearing {
            return "The person is speaking right now, so the message was not said. Call listen to hear them, then answer."
        }
        if speaks, status.state?.phase == .speaking {
            return "Earshot is saying something else right now, so the message was not said. Try again once it has finished."
        }
        let backends = Dictionary((status.backends ?? []).map { ($0.role, $0.name ?? "none") }, uniquingKeysWith: { first, _ in first })
        if listens, backends["transcription"] == "none" {
            return "The Earshot daemon transcribes nothing (it runs with --stt none), so it cannot hear the answer. "
                + "Start earshotd with a transcriber, e.g. --stt embedded."
        }
        if speaks, backends["speech"] == "none" {
            return "The Earshot daemon cannot speak (it runs with --tts none). Start earshotd with a voice, e.g. --tts embedded."
        }
        return nil
    }
}

extension AgentExchange.Outcome {
    /// The words the agent reads.
    public var toolResult: MCPToolResult {
        switch self {
        case .said(nil):
            return MCPToolResult(text: "Said to the end.", isError: false)
        case .said(let interruption?):
            let still = if case .bargedIn = interruption { " They are speaking now: call listen to hear them." } else { "" }
            return MCPToolResult(text: interruption.words + "." + still, isError: false)
        case .heard(let transcript, nil):
            return MCPToolResult(text: "The person said: \(Self.quoted(transcript))", isError: false)
        case .heard(let transcript, let interruption?):
            return MCPToolResult(text: "\(interruption.words). Then they said: \(Self.quoted(transcript))", isError: false)
        case .dismissed(let said):
            let after = said.map { $0.isEmpty ? " before any of the message was said" : " after: \(Self.quoted($0))" } ?? ""
            return MCPToolResult(
                text: "The person dismissed the conversation\(after). Voice mode is off: they do not want to talk now.", isError: false
            )
        case .cancelled(nil):
            return MCPToolResult(text: "The person cancelled their turn; nothing was said.", isError: false)
        case .cancelled(let interruption?):
            return MCPToolResult(text: "\(interruption.words), then cancelled their turn; nothing was said.", isError: false)
        case .failed(let reason):
            return MCPToolResult(text: reason, isError: true)
        }
    }

    static func quoted(_ text: String) -> String { "\u{201C}\(text)\u{201D}" }
}

extension AgentExchange.Interruption {
    /// "The person interrupted after: “…”", without a full stop.
    var words: String {
        switch self {
        case .bargedIn(let said): "The person interrupted after: \(AgentExchange.Outcome.quoted(said))"
        case .stopped(let said): "The person stopped the message after: \(AgentExchange.Outcome.quoted(said))"
        }
    }
}

extension AgentExchange.State {
    /// What the exchange was waiting for, for a message that it gave up.
    var doing: String {
        switch self {
        case .saying: "the message was being said"
        case .listening: "listening"
        case .hearing: "the person's turn was under way"
        case .finished: "finishing"
        }
    }
}
