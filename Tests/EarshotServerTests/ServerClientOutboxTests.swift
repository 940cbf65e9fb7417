import EarshotProtocol
import EarshotTestSupport
import NIOCore
import Testing

@testable import EarshotServer

/// The outbox's decisions, without a socket: each row feeds one input and checks what the
/// publisher or the event loop is told to do.
@Suite struct ServerClientOutboxTests {
    typealias Outbox = ClientOutbox

    enum Row {
        /// An essential event (`state` unless said) with this line.
        case event(String, topic: EventTopic = .state, Outbox.PublishAction)
        /// A mic (unless said) level reading at `time` with this line.
        case level(String, Double, source: LevelEvent.Source = .mic, Outbox.PublishAction)
        case respond(String)
        case woken
        /// The loop takes up to `upTo` lines and gets these.
        case take(upTo: Int = 100, isWritable: Bool = true, [String])
    }

    static func line(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }

    static func texts(_ lines: [ByteBuffer]) -> [String] {
        lines.map { String(buffer: $0) }
    }

    func subscribed(capacity: Int = 4, stallLimit: Double = 10, topics: Set<EventTopic> = Set(EventTopic.allCases), levelHz: Int = 60) -> Outbox {
        var outbox = Outbox(capacity: capacity, stallLimit: stallLimit)
        outbox.subscribe(Subscription(topics: topics, levelHz: levelHz), response: Self.line("subscribed"))
        #expect(Self.texts(outbox.take(upTo: 10, isWritable: true)) == ["subscribed"])
        return outbox
    }

    func run(_ rows: [Row], on outbox: inout Outbox, sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, row) in rows.enumerated() {
            switch row {
            case .event(let text, let topic, let expected):
                let action = outbox.offer(Self.line(text), as: .essential(topic))
                #expect(action == expected, "row \(index): \(text)", sourceLocation: sourceLocation)
            case .level(let text, let time, let source, let expected):
                let action = outbox.offer(Self.line(text), as: .level(source, time: time))
                #expect(action == expected, "row \(index): \(text)", sourceLocation: sourceLocation)
            case .respond(let text):
                outbox.respond(Self.line(text))
            case .woken:
                outbox.woken()
            case .take(let maximum, let isWritable, let expected):
                let taken = Self.texts(outbox.take(upTo: maximum, isWritable: isWritable))
                #expect(taken == expected, "row \(index): take", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func levelsAreThinnedAndReplacedAndEveryOtherEventIsEssential() {
        #expect(ServerTestEvents.level(1.2).deliveryClass == .level(.mic, time: 1.2))
        #expect(ServerTestEvents.level(0.5, source: .speaker).deliveryClass == .level(.speaker, time: 0.5))
        #expect(ServerTestEvents.state(turn: 1, time: 1).deliveryClass == .essential(.state))
        #expect(ServerTestEvents.device(time: 2).deliveryClass == .essential(.device))
        let config = ConfigReloadEvent(file: "/c.toml", applied: [], restartNeeded: [], overridden: [], time: 3)
        #expect(SocketEvent.config(config).deliveryClass == .essential(.config))
        let speaker = SpeakerEvent(phase: .end, reply: 1, time: 4)
        #expect(SocketEvent.speaker(speaker).deliveryClass == .essential(.speaker))
    }

    @Test func takesNoEventBeforeASubscriptionButAnswers() {
        var outbox = Outbox()
        run([.event("s1", .none), .level("l1", 0.02, .none), .respond("r1"), .take(["r1"])], on: &outbox)
        #expect(Outbox.defaultCapacity == 256)
        #expect(Outbox.defaultStallLimit == 10)
    }

    @Test func filtersByTopicAndThinsLevels() {
        var outbox = subscribed(topics: [.speech, .level], levelHz: 10)
        run([
            .event("s1", .none), .event("p1", topic: .speech, .wakeLoop), .level("l1", 0.02, .none), .take(["p1", "l1"]),
            // 30 ms after the last reading is too soon at 10 Hz; 100 ms is not.
            .level("l2", 0.05, .none), .level("l3", 0.12, .none), .event("e1", topic: .error, .none), .take(["l3"]),
        ], on: &outbox)
    }

    /// The topic test the publisher makes for every event agrees with the subscribed set, for
    /// every topic alone, every pair and all of them.
    @Test func aSubscriptionIncludesExactlyItsTopics() {
        let topics = EventTopic.allCases
        var sets: [Set<EventTopic>] = [[], Set(topics)]
        for first in topics {
            for second in topics { sets.append([first, second]) }
        }
        for set in sets {
            let subscription = Subscription(topics: set)
            for topic in topics {
                #expect(subscription.includes(topic) == set.contains(topic), "\(topic) in \(set.sorted())")
            }
        }
    }

    @Test func wakesTheLoopOncePerBatch() {
        var outbox = subscribed()
        run([
            .event("s1", .wakeLoop), .event("s2", .none), .level("l1", 0.02, .none),
            // The wake reached the loop: the next offer may need another one.
            .woken, .event("s3", .wakeLoop), .take(upTo: 2, ["s1", "s2"]), .take(["l1", "s3"]), .take([]),
            .event("s4", .none), .woken, .take(["s4"]), .take([]),
        ], on: &outbox)
    }

    @Test func aLevelNotTakenIsReplacedByTheNewestAndGoesWhereItWasOffered() {
        var outbox = subscribed(capacity: 8)
        run([
            .event("s1", .wakeLoop), .level("m1", 0.02, .none), .event("s2", .none),
            .level("m2", 0.04, .droppedLevel), .level("k1", 0.04, source: .speaker, .none), .event("s3", .none),
            .level("m3", 0.06, .droppedLevel), .woken, .take(["s1", "s2", "k1", "s3", "m3"]),
            .level("m4", 0.08, .wakeLoop), .woken, .take(["m4"]),
        ], on: &outbox)
    }

    @Test func aLevelIsCopiedSoThePublisherMayReuseItsBuffer() {
        var outbox = subscribed()
        var buffer = Self.line("level one")
        #expect(outbox.offer(buffer, as: .level(.mic, time: 0.02)) == .wakeLoop)
        buffer.clear()
        buffer.writeString("level two, longer")
        #expect(Self.texts(outbox.take(upTo: 5, isWritable: true)) == ["level one"])
    }

    @Test func anUnwritableChannelIsNotWokenUntilItDrains() {
        var outbox = subscribed()
        run([
            .event("s1", .wakeLoop), .woken, .take(isWritable: false, []),
            // The loop drains when the channel becomes writable again; no wake is asked for.
            .event("s2", .none), .level("l1", 0.02, .none), .level("l2", 0.04, .droppedLevel),
            .take(isWritable: true, ["s1", "s2", "l2"]), .take([]), .event("s3", .wakeLoop),
        ], on: &outbox)
    }

    @Test func disconnectsWhenAnEssentialEventFindsTheQueueFull() {
        var outbox = subscribed(capacity: 3)
        run([
            .event("s1", .wakeLoop), .event("s2", .none), .event("s3", .none),
            // Levels never take a place in the queue.
            .level("l1", 0.02, .none), .event("s4", .disconnect(.queueFull)), .event("s5", .none), .take([]),
        ], on: &outbox)
        #expect(outbox.isClosed)
    }

    @Test func disconnectsAClientThatTakesNothingForTheStallLimit() {
        var outbox = subscribed(stallLimit: 1)
        run([
            .event("s1", .wakeLoop), .level("l1", 0.02, .none),
            // From here each reading replaces one the loop has not taken; 1 s of audio later the
            // client goes.
            .level("l2", 0.04, .droppedLevel), .level("l3", 0.53, .droppedLevel), .event("s2", .none),
            .level("l4", 1.03, .droppedLevel), .level("l5", 1.05, .disconnect(.stalled)), .event("s3", .none), .take([]),
        ], on: &outbox)
        #expect(outbox.isClosed)
    }

    @Test func aClientThatTakesSomethingIsNotStalledHoweverFarBehind() {
        var outbox = subscribed(stallLimit: 1)
        var dropped = 0
        for reading in 1...600 {
            let action = outbox.offer(Self.line("l\(reading)"), as: .level(.mic, time: Double(reading) / 50))
            #expect(action != .disconnect(.stalled))
            if action == .droppedLevel { dropped += 1 }
            // A slow reader: one line every half second of audio.
            if reading % 25 == 0 {
                outbox.woken()
                #expect(Self.texts(outbox.take(upTo: 1, isWritable: true)) == ["l\(reading)"])
            }
        }
        #expect(!outbox.isClosed)
        #expect(dropped == 600 - 24)
    }

    @Test func unsubscribingForgetsTheEventsButNotTheResponses() {
        var outbox = subscribed()
        run([.event("s1", .wakeLoop), .level("l1", 0.02, .none), .respond("r1")], on: &outbox)
        outbox.unsubscribe(response: Self.line("r2"))
        #expect(outbox.subscription == nil)
        run([.take(["r1", "r2"]), .event("s2", .none)], on: &outbox)
    }

    @Test func theSubscribeResponseComesBeforeTheSubscriptionsEvents() {
        var outbox = Outbox()
        outbox.subscribe(Subscription(topics: [.state]), response: Self.line("r1"))
        run([.event("s1", .wakeLoop), .take(["r1", "s1"])], on: &outbox)
        #expect(outbox.subscription == Subscription(topics: [.state]))
    }

    @Test func responsesKeepTheirPlaceBehindEventsWhateverTheCapacity() {
        var outbox = subscribed(capacity: 1)
        run([.event("s1", .wakeLoop), .respond("r1"), .respond("r2"), .event("s2", .disconnect(.queueFull))], on: &outbox)
        var other = subscribed(capacity: 1)
        run([.event("s1", .wakeLoop), .respond("r1"), .respond("r2"), .take(["s1", "r1", "r2"])], on: &other)
    }

    @Test func closingAfterSendingHandsBackWhatWaitsInOrder() {
        var outbox = subscribed()
        run([.event("s1", .wakeLoop), .level("l1", 0.02, .none), .respond("r1")], on: &outbox)
        #expect(Self.texts(outbox.closeAfterSending()) == ["s1", "l1", "r1"])
        #expect(outbox.isClosed)
        run([.event("s2", .none), .take([])], on: &outbox)
    }

    /// Random offers, wakes, takes and writability against the promises written out plainly:
    /// one wake at a time; nothing left waiting without a wake pending or the channel unwritable;
    /// essential events all delivered, in order, unless the client is disconnected; each level
    /// delivered or counted as dropped, and the newest of its source always delivered.
    @Test func keepsItsPromisesUnderRandomTraffic() {
        var generator = SeededGenerator(seed: 22)
        for _ in 0..<300 {
            let capacity = Int.random(in: 1...8, using: &generator)
            var outbox = subscribed(capacity: capacity)
            var wakePending = false
            var isWritable = true
            var essentials: [Int] = []
            var levels: [LevelEvent.Source: [Int]] = [.mic: [], .speaker: []]
            var delivered: [String] = []
            var dropped = 0
            var disconnected = false
            var time = 0.0
            func drain() {
                while true {
                    let lines = Self.texts(outbox.take(upTo: Int.random(in: 1...3, using: &generator), isWritable: isWritable))
                    if lines.isEmpty { return }
                    delivered += lines
                }
            }
            for id in 0..<200 where !disconnected {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<4:
                    let source: LevelEvent.Source = Bool.random(using: &generator) ? .mic : .speaker
                    time += 0.02
                    let action = outbox.offer(Self.line("\(source)\(id)"), as: .level(source, time: time))
                    levels[source]!.append(id)
                    switch action {
                    case .wakeLoop:
                        #expect(!wakePending)
                        wakePending = true
                    case .droppedLevel: dropped += 1
                    case .none: break
                    case .disconnect: disconnected = true
                    }
                case 4..<7:
                    let action = outbox.offer(Self.line("e\(id)"), as: .essential(.state))
                    switch action {
                    case .wakeLoop:
                        #expect(!wakePending)
                        wakePending = true
                        essentials.append(id)
                    case .none: essentials.append(id)
                    case .droppedLevel: Issue.record("an essential event was dropped")
                    case .disconnect: disconnected = true
                    }
                case 7..<9 where wakePending:
                    // The loop runs the wake.
                    wakePending = false
                    outbox.woken()
                    drain()
                case 7..<9:
                    break
                default:
                    // The loop sees the channel's writability change as it writes.
                    isWritable.toggle()
                    if isWritable {
                        drain()
                    } else {
                        #expect(outbox.take(upTo: 1, isWritable: false).isEmpty)
                    }
                }
                let (queued, waitingLevels, _) = outbox.backlog
                if queued + waitingLevels > 0, !disconnected {
                    #expect(wakePending || !isWritable, "something waits, but the loop will not look")
                }
                #expect(queued <= capacity)
            }
            if disconnected {
                #expect(outbox.isClosed)
                continue
            }
            if wakePending { outbox.woken() }
            isWritable = true
            drain()
            #expect(delivered.filter { $0.hasPrefix("e") } == essentials.map { "e\($0)" })
            for source in [LevelEvent.Source.mic, .speaker] {
                let ids = delivered.filter { $0.hasPrefix("\(source)") }.compactMap { Int($0.dropFirst("\(source)".count)) }
                #expect(ids == ids.sorted())
                #expect(ids.last == levels[source]!.last)
            }
            let offeredLevels = levels.values.map(\.count).reduce(0, +)
            #expect(delivered.count - essentials.count + dropped == offeredLevels)
        }
    }
}
