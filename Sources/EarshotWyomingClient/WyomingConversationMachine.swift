import EarshotWyoming

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
