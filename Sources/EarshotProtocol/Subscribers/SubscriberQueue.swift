public import EarshotBase

/// One client's outgoing lines: its subscription, a bounded queue of events (256 by default),
/// what to do when the client cannot keep up, and who may write to its socket next. A plain
/// value; the server guards it with a lock because the publisher fills it from its own thread
/// while the connection's event loop empties it.
///
/// When the queue is full the oldest `level` event makes room; when only essential events are
/// left and one more cannot be kept, the client must be disconnected. So must a client that has
/// taken nothing while its queue stayed full for `stallLimit` seconds of audio (measured on the
/// level events it lost): it has stopped reading, and would otherwise hold its backlog for good.
///
/// A line goes straight to the socket from the thread that offers it (`sendNow`) only when
/// nothing is queued or being written by the event loop, so lines never overtake each other
/// and no thread is woken for an event the socket takes at once. What the socket does not take
/// waits here, first in line, for the event loop, which waits for the socket to drain.
public struct SubscriberQueue<Payload: Sendable>: Sendable {
    public static var defaultCapacity: Int { 256 }

    /// What the caller must do after ``offer(_:as:)``.
    public enum OfferAction: Hashable, Sendable {
        /// Not subscribed to its topic, thinned out by `level_hz`, or the queue is closed.
        case skipped
        /// Queued. With `startDraining`, no drain is under way: the caller must start one.
        case queued(startDraining: Bool)
        /// Nothing waits and nothing is being written: the caller writes the line to the socket
        /// itself, now, under the same lock; it was not queued. What the socket does not take
        /// goes to ``sendFellShort(remainder:)``.
        case sendNow
        /// Queued in place of the oldest queued level event, which was dropped.
        case replacedOldestLevel
        /// A level event that found the queue full of essential events; it was dropped.
        case droppedLevel
        /// An essential event found the queue full of essential events. The queue is now closed
        /// and empty; the caller must disconnect the client.
        case disconnect
        /// The client has taken nothing for `stallLimit` seconds of audio while its queue stayed
        /// full (its level events were dropped meanwhile). The queue is now closed and empty; the
        /// caller must disconnect the client.
        case disconnectStalled
    }

    // `offer` and `dequeue` run for every event and client, from another module: they are
    // inlinable so the server gets a copy specialized to its payload, not generic calls that
    // look up type metadata each time.
    @usableFromInline
    enum Kind: Sendable {
        /// May make room for newer events when the queue is full.
        case level
        case event
        /// A response, or the rest of a line the socket took only part of: sent whatever
        /// happens to the subscription.
        case mustSend
    }

    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var payload: Payload
        @usableFromInline var kind: Kind

        @usableFromInline
        init(payload: Payload, kind: Kind) {
            self.payload = payload
            self.kind = kind
        }

        @usableFromInline var isLevel: Bool { kind == .level }
    }

    public let capacity: Int
    /// Seconds of audio a full queue may go without the client taking anything.
    public let stallLimit: Double
    public private(set) var subscription: Subscription?
    /// Whether the queue gave up on its client (it takes nothing more).
    public var isClosed: Bool { closed }
    @usableFromInline var closed = false
    @usableFromInline var pacer = LevelPacer(levelHz: Command.defaultLevelHz)
    @usableFromInline var entries: [Entry] = []
    /// True from the offer that asked for a drain until a drain finds the queue empty, so each
    /// stretch of backlog starts exactly one drain.
    @usableFromInline var draining = false
    /// Batches and responses handed to the event loop whose writes have not completed.
    @usableFromInline var loopWritesInFlight = 0
    /// The audio time of the first level event dropped since the client last took anything.
    @usableFromInline var droppingSince: Double?

    /// Nothing queued, nothing draining, nothing written by the event loop still under way.
    @usableFromInline var isIdle: Bool {
        entries.isEmpty && !draining && loopWritesInFlight == 0
    }

    public static var defaultStallLimit: Double { 10 }

    public init(capacity: Int = Self.defaultCapacity, stallLimit: Double = Self.defaultStallLimit) {
        precondition(capacity > 0, "a subscriber queue needs room for one event")
        self.capacity = capacity
        self.stallLimit = stallLimit
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
        droppingSince = nil
    }

    /// Ends the subscription and forgets the events not yet sent (responses and the rest of a
    /// line already begun still go).
    public mutating func unsubscribe() {
        subscription = nil
        entries.removeAll { $0.kind != .mustSend }
    }

    /// Offers an event. With `canSendNow` (the caller holds a socket of its own for the client),
    /// an idle queue answers `sendNow` instead of queueing it.
    @inlinable
    public mutating func offer(_ payload: Payload, as deliveryClass: DeliveryClass, canSendNow: Bool = false) -> OfferAction {
        guard !closed, let subscription, subscription.topics.contains(deliveryClass.topic) else { return .skipped }
        let kind: Kind
        var levelTime: Double?
        switch deliveryClass {
        case .level(let source, let time):
            guard pacer.admit(source, time: time) else { return .skipped }
            kind = .level
            levelTime = time
        case .essential:
            kind = .event
        }
        if canSendNow, isIdle { return .sendNow }
        let entry = Entry(payload: payload, kind: kind)
        if entries.count < capacity {
            return append(entry)
        }
        if let levelTime {
            // A level is about to be lost: how long has the client been taking nothing?
            let since = droppingSince ?? levelTime
            droppingSince = since
            if levelTime - since >= stallLimit {
                closed = true
                entries.removeAll()
                return .disconnectStalled
            }
        }
        if let oldestLevel = entries.firstIndex(where: \.isLevel) {
            entries.remove(at: oldestLevel)
            entries.append(entry)
            return .replacedOldestLevel
        }
        if levelTime != nil { return .droppedLevel }
        closed = true
        entries.removeAll()
        return .disconnect
    }

    /// A response to a command, which must reach the client after everything before it:
    /// `sendNow` when nothing waits or is being written, else queued after what waits (beyond
    /// the capacity if need be: a connection runs one command at a time).
    public mutating func offerResponse(_ payload: Payload) -> OfferAction {
        guard !closed else { return .skipped }
        if isIdle { return .sendNow }
        return append(Entry(payload: payload, kind: .mustSend))
    }

    /// The socket took only part of a `sendNow` line: `remainder` goes first, through the
    /// event loop. The caller must start a drain.
    public mutating func sendFellShort(remainder: Payload) {
        entries.insert(Entry(payload: remainder, kind: .mustSend), at: 0)
        draining = true
    }

    /// Takes up to `maximum` lines, oldest first, for the event loop to write; when it has
    /// written them it calls ``loopWriteFinished()``. An empty result ends the drain: the next
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
        droppingSince = nil
        loopWritesInFlight += 1
        return batch
    }

    /// The event loop is writing a line it did not take from the queue (a response sent while
    /// the server had no descriptor of its own); ``loopWriteFinished()`` follows.
    public mutating func loopWriteStarted() {
        loopWritesInFlight += 1
    }

    /// A batch or response the event loop wrote has left (or failed with the connection).
    public mutating func loopWriteFinished() {
        loopWritesInFlight = max(0, loopWritesInFlight - 1)
    }

    /// The client ends the connection: hands back everything still to send, in order, and
    /// takes nothing more.
    public mutating func closeAfterSending() -> [Payload] {
        closed = true
        defer { entries.removeAll() }
        return entries.map(\.payload)
    }

    /// Gives up on the client: takes nothing more and forgets what is queued.
    public mutating func close() {
        closed = true
        entries.removeAll()
    }

    @usableFromInline
    mutating func append(_ entry: Entry) -> OfferAction {
        entries.append(entry)
        if draining { return .queued(startDraining: false) }
        draining = true
        return .queued(startDraining: true)
    }
}

/// What a client subscribed to.
public struct Subscription: Hashable, Sendable {
    public var topics: Set<EventTopic>
    /// The most `level` events per second of audio the client wants.
    public var levelHz: Int

    public init(topics: Set<EventTopic> = Set(EventTopic.allCases), levelHz: Int = Command.defaultLevelHz) {
        self.topics = topics
        self.levelHz = levelHz
    }

    /// The result keys of a successful `subscribe`: `topics` (in documented order), `level_hz`.
    public var resultFields: JSONObject {
        ["topics": .array(topics.sorted().map { .string($0.rawValue) }), "level_hz": .integer(levelHz)]
    }
}

/// How a subscriber queue treats an event: `level` readings may be thinned and dropped; every
/// other event must be delivered or the subscriber disconnected.
public enum DeliveryClass: Hashable, Sendable {
    /// A level reading of `source` stamped at audio time `time`.
    case level(LevelEvent.Source, time: Double)
    /// Any other event: `state`, `speech`, `transcript`, `speaker`, `error`, `device` or `config`.
    case essential(EventTopic)

    public var topic: EventTopic {
        switch self {
        case .level: .level
        case .essential(let topic): topic
        }
    }
}
