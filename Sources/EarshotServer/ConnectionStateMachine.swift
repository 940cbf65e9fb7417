import EarshotBase
import EarshotProtocol

/// One client connection's request handling, without I/O: lines are answered one at a time in
/// the order they arrived, and reading pauses while too many wait or output is backed up.
///
/// Every input returns the next action; after performing it the handler asks ``nextAction()``
/// for more until it gets `.none`.
struct ConnectionStateMachine {
    enum Phase: Equatable {
        /// Accepted, but the peer's user is not known yet: nothing is read.
        case checkingPeer
        case open
        case closed
    }

    /// Lines read but not yet answered, beyond which reading pauses. Bounds the memory a client
    /// can make the daemon spend by sending faster than it reads.
    let maximumPendingLines: Int
    /// The line limit, for the `line_too_long` message.
    let maximumLineLength: Int
    private(set) var phase = Phase.checkingPeer
    private var pending: [Result<Request, InvalidRequest>] = []
    /// The `id` of the command the handler is running, while it runs.
    private var runningID: JSONValue?
    private var isWritable = true
    private var readHeld = false
    /// The client shut down its sending side (e.g. `socat` after its input ends).
    private var inputClosed = false
    /// A subscriber that stopped sending still receives events, so it is not closed.
    private var subscribed = false

    init(maximumLineLength: Int, maximumPendingLines: Int = 16) {
        self.maximumLineLength = maximumLineLength
        self.maximumPendingLines = maximumPendingLines
    }

    /// Whether the peer runs as the daemon's own user.
    mutating func peerChecked(sameUser: Bool) -> ConnectionAction {
        guard phase == .checkingPeer else { return .none }
        guard sameUser else {
            phase = .closed
            pending.removeAll()
            return .refuse(InvalidRequest(error: .permissionDenied).response)
        }
        phase = .open
        return nextAction()
    }

    mutating func lineReceived(_ line: InboundLine) -> ConnectionAction {
        guard phase == .open else { return .none }
        switch line {
        case .line(let bytes):
            pending.append(RequestDecoder.decode(bytes))
        case .tooLong:
            pending.append(.failure(InvalidRequest(error: .lineTooLong(limit: maximumLineLength))))
        }
        return nextAction()
    }

    /// The handler finished the running command; answer it.
    mutating func commandFinished(_ result: CommandResult) -> ConnectionAction {
        guard phase == .open, let id = runningID else { return .none }
        runningID = nil
        return .respond(Response(id: id, result: result))
    }

    mutating func writabilityChanged(isWritable: Bool) -> ConnectionAction {
        self.isWritable = isWritable
        return nextAction()
    }

    /// The channel wants to read more.
    mutating func readRequested() -> ConnectionAction {
        readHeld = true
        return nextAction()
    }

    /// The client will send nothing more.
    mutating func inputEnded() -> ConnectionAction {
        inputClosed = true
        return nextAction()
    }

    mutating func closed() {
        phase = .closed
        pending.removeAll()
        runningID = nil
    }

    mutating func nextAction() -> ConnectionAction {
        guard phase == .open else { return .none }
        // Answers wait while output is backed up, so a client that sends but never reads fills
        // its own socket, not the daemon's memory.
        if runningID == nil, isWritable, !pending.isEmpty {
            return start(pending.removeFirst())
        }
        if inputClosed {
            guard runningID == nil, pending.isEmpty, !subscribed else { return .none }
            phase = .closed
            return .closeAfterWrites
        }
        if readHeld, isWritable, pending.count < maximumPendingLines {
            readHeld = false
            return .read
        }
        return .none
    }

    private mutating func start(_ line: Result<Request, InvalidRequest>) -> ConnectionAction {
        switch line {
        case .failure(let invalid):
            return .respond(invalid.response)
        case .success(let request):
            switch request.command {
            case .subscribe(let topics, let levelHz):
                let subscription = Subscription(topics: topics, levelHz: levelHz)
                subscribed = true
                return .subscribe(subscription, Response(id: request.id, result: .answer(subscription.answer)))
            case .unsubscribe:
                subscribed = false
                return .unsubscribe(Response(id: request.id, result: .answer(UnsubscribeAnswer())))
            case .claim, .unclaim:
                return .claimOrRelease(request.command, id: request.id)
            default:
                runningID = request.id
                return .runCommand(request.command)
            }
        }
    }
}

/// The one thing a connection's channel handler must do next.
enum ConnectionAction: Equatable {
    /// Nothing until the next input.
    case none
    /// Send this response.
    case respond(Response)
    /// Apply the subscription to the client's event queue, then send the response.
    case subscribe(Subscription, Response)
    /// End the client's subscription, then send the response.
    case unsubscribe(Response)
    /// Apply `claim` or `release` to the server's ``ConversationClaim`` and send its answer with this id.
    case claimOrRelease(Command, id: JSONValue)
    /// Run the command through the `CommandHandler`; report its result with `commandFinished`.
    case runCommand(Command)
    /// Pass on the read that was held back.
    case read
    /// The peer runs as another user: send this response, then close.
    case refuse(Response)
    /// The client finished sending and has every answer: close once they are written.
    case closeAfterWrites
}
