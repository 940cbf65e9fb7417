/// What the assistant remembers of a conversation, in memory only: the person's turns and, of
/// its own replies, only what was played to the person (a reply talked over is kept up to where
/// the person stopped hearing it, as OpenAI's Realtime API truncates). The last `maximumTurns`
/// exchanges are kept; older ones are forgotten first.
public struct OpenAIChatHistory: Equatable, Sendable {
    /// One exchange: what the person said and what of the answer they heard.
    struct Exchange: Equatable, Sendable {
        var turn: Int
        var question: String
        var heard: String
    }

    /// Exchanges kept (at least 0: no memory, each turn stands alone).
    public let maximumTurns: Int
    private var exchanges: [Exchange] = []

    public init(maximumTurns: Int) {
        self.maximumTurns = max(0, maximumTurns)
    }

    /// How many exchanges are remembered.
    public var count: Int { exchanges.count }

    /// The messages of a request answering `transcript`: the instructions, the exchanges kept,
    /// and the new question. An exchange whose answer was not heard at all keeps the question
    /// only, so the model knows it was asked.
    public func messages(instructions: String?, asking transcript: String) -> [OpenAIChatMessage] {
        var messages: [OpenAIChatMessage] = []
        if let instructions, !instructions.isEmpty { messages.append(.init(.system, instructions)) }
        for exchange in exchanges {
            messages.append(.init(.user, exchange.question))
            if !exchange.heard.isEmpty { messages.append(.init(.assistant, exchange.heard)) }
        }
        messages.append(.init(.user, transcript))
        return messages
    }

    /// Remembers that the person asked `transcript` in `turn`; its answer is heard later.
    public mutating func asked(turn: Int, _ transcript: String) {
        exchanges.removeAll { $0.turn == turn }
        exchanges.append(Exchange(turn: turn, question: transcript, heard: ""))
        if exchanges.count > maximumTurns { exchanges.removeFirst(exchanges.count - maximumTurns) }
    }

    /// Remembers `text` as what the person heard of the answer to `turn` (all of it so far);
    /// nothing when that turn is no longer remembered.
    public mutating func heard(turn: Int, _ text: String) {
        guard let index = exchanges.lastIndex(where: { $0.turn == turn }) else { return }
        exchanges[index].heard = text
    }

    /// Forgets the question of `turn` and its answer.
    public mutating func withdraw(turn: Int) {
        exchanges.removeAll { $0.turn == turn }
    }

    /// Forgets everything.
    public mutating func forget() {
        exchanges.removeAll()
    }
}
