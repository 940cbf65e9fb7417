import EarshotProtocol
import NIOCore

/// One client's outgoing lines, without I/O: its subscription, what waits for the connection's
/// event loop to write it, and when that loop must be woken. A plain value; the server keeps it
/// under a lock, since the publishing thread offers events while the event loop takes them.
///
/// Only the event loop writes to the client. The publisher hands a line over and wakes the loop
/// at most once per batch: not while a wake is pending, nor while the channel is unwritable (the
/// loop drains when it becomes writable again). Essential events and responses wait in one
/// bounded queue, in order; level readings never queue: each source has one slot, and a reading
/// the loop has not taken yet is replaced by the newer one (a dropped level). A client whose
/// queue has no room for an essential event must be disconnected, and so must one that takes
/// nothing for `stallLimit` seconds of audio while its levels are being replaced: it has stopped
/// reading, and would otherwise hold its backlog for good.
struct ClientOutbox {
    static var defaultCapacity: Int { 256 }
    static var defaultStallLimit: Double { 10 }

    enum State {
        case open(Open)
        /// The connection ended, or the client was given up on: nothing more is taken.
        case closed
        /// Only while an input changes `open`'s data, so its buffers are not copied.
        case modifying
    }

    /// What the publisher must do after ``offer(_:as:)``.
    enum PublishAction: Equatable, Sendable {
        /// Nothing: not for this client, thinned out, or waiting behind a wake already asked for
        /// or for the channel to become writable.
        case none
        /// Wake the connection's event loop to write what waits.
        case wakeLoop
        /// A level reading replaced one the loop had not taken: count it.
        case droppedLevel
        /// The client must go (the outbox is closed and empty now): count it.
        case disconnect(SlowClient)
    }

    /// Why a client is disconnected.
    enum SlowClient: Equatable, Sendable {
        /// An essential event found the queue full.
        case queueFull
        /// The client took nothing for the stall limit while its levels were being replaced.
        case stalled
    }

    /// Lines the queue may hold when an essential event comes; responses are queued beyond it.
    let capacity: Int
    /// Seconds of audio a client may go without taking anything while its levels are replaced.
    let stallLimit: Double
    private(set) var state: State

    init(capacity: Int = Self.defaultCapacity, stallLimit: Double = Self.defaultStallLimit) {
        precondition(capacity > 0, "an outbox needs room for one event")
        self.capacity = capacity
        self.stallLimit = stallLimit
        self.state = .open(Open())
    }

    // MARK: The publisher's input

    /// Offers a published event. A level's line is copied into the client's slot (`line` is not
    /// kept, so the publisher may reuse it); an essential event's line is kept as it is.
    mutating func offer(_ line: ByteBuffer, as deliveryClass: DeliveryClass) -> PublishAction {
        guard case .open(var open) = state else { return .none }
        state = .modifying
        let action = open.offer(line, as: deliveryClass, capacity: capacity, stallLimit: stallLimit)
        state = if case .disconnect = action { .closed } else { .open(open) }
        return action
    }

    // MARK: The event loop's inputs

    /// The wake the publisher asked for has reached the loop, which drains next.
    mutating func woken() {
        modifyOpen { $0.wakePending = false }
    }

    /// Up to `maximum` lines for the loop to write, oldest first; none while the channel is not
    /// writable (the next offer does not wake the loop: its writability does). The loop writes
    /// them and asks again until it gets none.
    mutating func take(upTo maximum: Int, isWritable: Bool) -> [ByteBuffer] {
        modifyOpen(orElse: []) { $0.take(upTo: maximum, isWritable: isWritable) }
    }

    /// A response to a command, sent after everything before it whatever the capacity (a
    /// connection runs one command at a time); the loop drains next.
    mutating func respond(_ line: ByteBuffer) {
        modifyOpen { $0.enqueue(line, isResponse: true) }
    }

    /// Starts (or changes) the subscription, after `response`: no event of it precedes the
    /// answer. Level pacing starts afresh.
    mutating func subscribe(_ subscription: Subscription, response: ByteBuffer) {
        modifyOpen { open in
            open.enqueue(response, isResponse: true)
            open.subscription = subscription
            open.pacer = LevelPacer(levelHz: subscription.levelHz)
            open.droppingSince = nil
        }
    }

    /// Ends the subscription, forgets the events not yet taken (responses still go) and
    /// queues `response`.
    mutating func unsubscribe(response: ByteBuffer) {
        modifyOpen { open in
            open.subscription = nil
            open.forgetEvents()
            open.enqueue(response, isResponse: true)
        }
    }

    /// The client ends the connection: hands back everything still to send, in order, and takes
    /// nothing more.
    mutating func closeAfterSending() -> [ByteBuffer] {
        let rest = modifyOpen(orElse: []) { $0.take(upTo: .max, isWritable: true) }
        state = .closed
        return rest
    }

    /// The connection is gone: takes nothing more and forgets what waits.
    mutating func close() {
        state = .closed
    }

    // MARK: What tests and diagnostics read

    var subscription: Subscription? {
        guard case .open(let open) = state else { return nil }
        return open.subscription
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Events and responses waiting in the queue, level readings waiting in their slots, and
    /// the readings replaced so far.
    var backlog: (queued: Int, levels: Int, droppedLevels: Int) {
        guard case .open(let open) = state else { return (0, 0, 0) }
        return (open.queue.count, open.levels.count, open.droppedLevels)
    }

    private mutating func modifyOpen<Result>(orElse closed: Result, _ body: (inout Open) -> Result) -> Result {
        guard case .open(var open) = state else { return closed }
        state = .modifying
        defer { state = .open(open) }
        return body(&open)
    }

    private mutating func modifyOpen(_ body: (inout Open) -> Void) {
        modifyOpen(orElse: ()) { body(&$0) }
    }
}

extension ClientOutbox {
    /// An open outbox's data.
    struct Open {
        var subscription: Subscription?
        var pacer = LevelPacer(levelHz: Command.defaultLevelHz)
        /// Essential events and responses, oldest first.
        var queue = CircularBuffer<Entry>(initialCapacity: 16)
        var levels = LevelSlots()
        /// Orders queue entries and level slots among each other, as they were offered.
        var nextSequence: UInt64 = 0
        /// A wake was asked for and has not reached the loop yet.
        var wakePending = false
        /// As the loop last saw the channel; while false the loop waits for writability.
        var isWritable = true
        /// The audio time of the first level replaced since the client last took anything.
        var droppingSince: Double?
        var droppedLevels = 0

        mutating func offer(_ line: ByteBuffer, as deliveryClass: DeliveryClass, capacity: Int, stallLimit: Double) -> PublishAction {
            guard let subscription, subscription.includes(deliveryClass.topic) else { return .none }
            switch deliveryClass {
            case .level(let source, let time):
                guard pacer.admit(source, time: time) else { return .none }
                let replaced = levels.put(line, from: source, sequence: nextSequence)
                nextSequence += 1
                guard replaced else { return wakeUnlessPending() }
                // A reading in the slot means a wake is pending or the channel is unwritable.
                droppedLevels += 1
                let since = droppingSince ?? time
                droppingSince = since
                return time - since >= stallLimit ? .disconnect(.stalled) : .droppedLevel
            case .essential:
                guard queue.count < capacity else { return .disconnect(.queueFull) }
                enqueue(line, isResponse: false)
                return wakeUnlessPending()
            }
        }

        mutating func enqueue(_ line: ByteBuffer, isResponse: Bool) {
            queue.append(Entry(line: line, sequence: nextSequence, isResponse: isResponse))
            nextSequence += 1
        }

        mutating func take(upTo maximum: Int, isWritable: Bool) -> [ByteBuffer] {
            self.isWritable = isWritable
            guard isWritable else { return [] }
            var lines: [ByteBuffer] = []
            while lines.count < maximum {
                let queued = queue.first?.sequence ?? .max
                if let level = levels.takeOldest(before: queued) {
                    lines.append(level)
                } else if let entry = queue.popFirst() {
                    lines.append(entry.line)
                } else {
                    break
                }
            }
            if !lines.isEmpty { droppingSince = nil }
            return lines
        }

        mutating func forgetEvents() {
            queue.removeAll { !$0.isResponse }
            levels = LevelSlots()
        }

        private mutating func wakeUnlessPending() -> PublishAction {
            guard !wakePending, isWritable else { return .none }
            wakePending = true
            return .wakeLoop
        }
    }

    struct Entry {
        var line: ByteBuffer
        var sequence: UInt64
        /// Responses are sent whatever happens to the subscription.
        var isResponse: Bool
    }

    /// The newest reading of each source not taken yet. Each slot keeps its buffer: a reading
    /// is copied in and, when taken, copied out, so the publisher never allocates for a level.
    struct LevelSlots {
        private(set) var mic = Slot()
        private(set) var speaker = Slot()

        struct Slot {
            var line = ByteBuffer()
            /// `nil` while the slot is empty.
            var sequence: UInt64?
        }

        var count: Int {
            (mic.sequence == nil ? 0 : 1) + (speaker.sequence == nil ? 0 : 1)
        }

        /// Puts a reading in its source's slot; `true` when it replaced one not taken.
        mutating func put(_ line: ByteBuffer, from source: LevelEvent.Source, sequence: UInt64) -> Bool {
            switch source {
            case .mic: Self.put(line, sequence: sequence, into: &mic)
            case .speaker: Self.put(line, sequence: sequence, into: &speaker)
            }
        }

        /// The oldest waiting reading offered before `sequence`, copied out of its slot.
        mutating func takeOldest(before sequence: UInt64) -> ByteBuffer? {
            let micFirst = (mic.sequence ?? .max) < (speaker.sequence ?? .max)
            if micFirst {
                return Self.take(from: &mic, before: sequence)
            }
            return Self.take(from: &speaker, before: sequence)
        }

        private static func put(_ line: ByteBuffer, sequence: UInt64, into slot: inout Slot) -> Bool {
            let replaced = slot.sequence != nil
            slot.line.clear()
            slot.line.writeImmutableBuffer(line)
            slot.sequence = sequence
            return replaced
        }

        private static func take(from slot: inout Slot, before sequence: UInt64) -> ByteBuffer? {
            guard let waiting = slot.sequence, waiting < sequence else { return nil }
            slot.sequence = nil
            var copy = ByteBufferAllocator().buffer(capacity: slot.line.readableBytes)
            copy.writeImmutableBuffer(slot.line)
            return copy
        }
    }
}
