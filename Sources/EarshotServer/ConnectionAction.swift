import EarshotProtocol

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
    /// Run the command through the `CommandHandler`; report its result with `commandFinished`.
    case runCommand(Command)
    /// Pass on the read that was held back.
    case read
    /// The peer runs as another user: send this response, then close.
    case refuse(Response)
    /// The client finished sending and has every answer: close once they are written.
    case closeAfterWrites
}
