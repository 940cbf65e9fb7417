import EarshotBase

/// Which connection holds the conversation with the person: `claim` and `unclaim` (PROTOCOL.md,
/// "One conversation at a time"). Agents each run their own client, so the daemon is the one place
/// that can keep two of them from talking to the person at once. A claim is held until its
/// connection releases it or closes.
public struct ConversationClaim: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case free
        /// `client`: the connection's number; `holder`: who it said it is.
        case held(client: Int, holder: String)
    }

    /// What the connection asking is told.
    public enum Action: Hashable, Sendable {
        /// The conversation is this connection's (newly or already).
        case granted(holder: String)
        /// Another connection holds it.
        case busy(holder: String)
        /// This connection's claim ended (`held` false: it had none).
        case released(held: Bool)
    }

    public private(set) var state = State.free

    public init() {}

    public mutating func claim(client: Int, holder: String) -> Action {
        switch state {
        case .held(let owner, let current) where owner != client:
            return .busy(holder: current)
        case .free, .held:
            state = .held(client: client, holder: holder)
            return .granted(holder: holder)
        }
    }

    public mutating func release(client: Int) -> Action {
        guard case .held(client, _) = state else { return .released(held: false) }
        state = .free
        return .released(held: true)
    }

    /// The connection closed: its claim, if any, ends with it.
    public mutating func disconnected(client: Int) -> Action {
        release(client: client)
    }

    /// Who holds the conversation now, `nil` when no one does.
    public var holder: String? {
        if case .held(_, let holder) = state { holder } else { nil }
    }
}

extension ConversationClaim.Action {
    /// The response to the `claim` or `unclaim` that led here.
    public var result: CommandResult {
        switch self {
        case .granted(let holder):
            .answer(ClaimAnswer(holder: holder))
        case .busy(let holder):
            .failure(ProtocolError(
                code: .busy,
                message: "Busy: \(holder) is in a conversation with the person. Try again once it has finished."
            ))
        case .released(let held):
            .answer(UnclaimAnswer(released: held))
        }
    }
}
