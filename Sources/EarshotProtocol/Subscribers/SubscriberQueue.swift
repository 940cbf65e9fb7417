/// One client's outgoing events: its subscription, a bounded queue (256 by default) and what to
/// do when the client cannot keep up. A plain value; the server guards it with a lock because
/// the publisher fills it from its own thread while the connection's event loop empties it.
///
/// When the queue is full the oldest `level` event makes room; when only essential events are
/// left and one more cannot be kept, the client must be disconnected.
public struct SubscriberQueue<Payload: Sendable>: Sendable {
    public static var defaultCapacity: Int { 256 }

    /// What the caller must do after ``offer(_:as:)``.
    public enum OfferAction: Hashable, Sendable {
        /// Not subscribed to its topic, thinned out by `level_hz`, or the queue is closed.
        case skipped
        /// Queued. With `startDraining`, no drain is under way: the caller must start one.
        case queued(startDraining: Bool)
        /// Queued in place of the oldest queued level event, which was dropped.
        case replacedOldestLevel
        /// A level event that found the queue full of essential events; it was dropped.
        case droppedLevel
        /// An essential event found the queue full of essential events. The queue is now closed
        /// and empty; the caller must disconnect the client.
        case disconnect
    }

    // `offer` and `dequeue` run for every event and client, from another module: they are
    // inlinable so the server gets a copy specialized to its payload, not generic calls that
    // look up type metadata each time.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var payload: Payload
        @usableFromInline var isLevel: Bool

        @usableFromInline
        init(payload: Payload, isLevel: Bool) {
            self.payload = payload
            self.isLevel = isLevel
        }
    }

    public let capacity: Int
    public private(set) var subscription: Subscription?
    /// Whether the queue gave up on its client (it takes nothing more).
    public var isClosed: Bool { closed }
    @usableFromInline var closed = false
    @usableFromInline var pacer = LevelPacer(levelHz: Command.defaultLevelHz)
    @usableFromInline var entries: [Entry] = []
    /// True from the offer that asked for a drain until a drain finds the queue empty, so each
    /// stretch of backlog starts exactly one drain.
    @usableFromInline var draining = false

    public init(capacity: Int = Self.defaultCapacity) {
        precondition(capacity > 0, "a subscriber queue needs room for one event")
        self.capacity = capacity
    }

    public var count: Int {
        entries.count
    }

    public var isEmpty: Bool {
        entries.isEmpty
    }

    /// Starts (or changes) the subscription; level pacing starts afresh.
    public mutating func subscribe(_ subscription: Subscription) {
        self.subscription = subscription
        pacer = LevelPacer(levelHz: subscription.levelHz)
    }

    /// Ends the subscription and forgets the events not yet sent.
    public mutating func unsubscribe() {
        subscription = nil
        entries.removeAll()
    }

    @inlinable
    public mutating func offer(_ payload: Payload, as deliveryClass: DeliveryClass) -> OfferAction {
        guard !closed, let subscription, subscription.topics.contains(deliveryClass.topic) else { return .skipped }
        let isLevel: Bool
        switch deliveryClass {
        case .level(let source, let time):
            guard pacer.admit(source, time: time) else { return .skipped }
            isLevel = true
        case .essential:
            isLevel = false
        }
        let entry = Entry(payload: payload, isLevel: isLevel)
        if entries.count < capacity {
            entries.append(entry)
            if draining { return .queued(startDraining: false) }
            draining = true
            return .queued(startDraining: true)
        }
        if let oldestLevel = entries.firstIndex(where: \.isLevel) {
            entries.remove(at: oldestLevel)
            entries.append(entry)
            return .replacedOldestLevel
        }
        if isLevel { return .droppedLevel }
        closed = true
        entries.removeAll()
        return .disconnect
    }

    /// Takes up to `maximum` events, oldest first. An empty result ends the drain: the next
    /// offer asks for a new one.
    @inlinable
    public mutating func dequeue(upTo maximum: Int) -> [Payload] {
        let taken = min(maximum, entries.count)
        guard taken > 0 else {
            draining = false
            return []
        }
        let batch = entries[..<taken].map(\.payload)
        entries.removeFirst(taken)
        return batch
    }

    /// Gives up on the client: takes nothing more and forgets what is queued.
    public mutating func close() {
        closed = true
        entries.removeAll()
    }
}
