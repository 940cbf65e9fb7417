import EarshotProtocol
import EarshotTestSupport
import Testing

@Suite struct ProtocolSubscriberQueueTests {
    typealias Queue = SubscriberQueue<Int>

    private func subscribed(capacity: Int = 4, topics: Set<EventTopic> = Set(EventTopic.allCases), levelHz: Int = 60) -> Queue {
        var queue = Queue(capacity: capacity)
        queue.subscribe(Subscription(topics: topics, levelHz: levelHz))
        return queue
    }

    @Test func takesNothingBeforeASubscription() {
        var queue = Queue()
        #expect(queue.offer(1, as: .essential(.state)) == .skipped)
        #expect(queue.isEmpty)
        #expect(Queue.defaultCapacity == 256)
    }

    @Test func filtersByTopic() {
        var queue = subscribed(topics: [.speech, .device])
        #expect(queue.offer(1, as: .essential(.state)) == .skipped)
        #expect(queue.offer(2, as: .level(.mic, time: 0.1)) == .skipped)
        #expect(queue.offer(3, as: .essential(.speech)) == .queued(startDraining: true))
        #expect(queue.offer(4, as: .essential(.error)) == .skipped)
        #expect(queue.offer(5, as: .essential(.device)) == .queued(startDraining: false))
        #expect(queue.dequeue(upTo: 10) == [3, 5])
    }

    @Test func thinsLevelsToTheSubscribedRate() {
        var queue = subscribed(capacity: 100, topics: [.level], levelHz: 10)
        var time = 0.0
        for reading in 0..<60 {
            time = Double(reading + 1) / 60
            _ = queue.offer(reading, as: .level(.mic, time: (time * 100).rounded(.up) / 100))
        }
        #expect(queue.count == 10)
    }

    @Test func asksForOneDrainPerBacklog() {
        var queue = subscribed()
        #expect(queue.offer(1, as: .essential(.state)) == .queued(startDraining: true))
        #expect(queue.offer(2, as: .essential(.state)) == .queued(startDraining: false))
        #expect(queue.dequeue(upTo: 1) == [1])
        #expect(queue.offer(3, as: .essential(.state)) == .queued(startDraining: false))
        #expect(queue.dequeue(upTo: 5) == [2, 3])
        // Only a drain that finds the queue empty ends; until then no new drain is needed.
        #expect(queue.offer(4, as: .essential(.state)) == .queued(startDraining: false))
        #expect(queue.dequeue(upTo: 5) == [4])
        #expect(queue.dequeue(upTo: 5) == [])
        #expect(queue.offer(5, as: .essential(.state)) == .queued(startDraining: true))
    }

    @Test func dropsTheOldestLevelFirstWhenFull() {
        var queue = subscribed(capacity: 4)
        _ = queue.offer(1, as: .essential(.state))
        _ = queue.offer(2, as: .level(.mic, time: 0.02))
        _ = queue.offer(3, as: .level(.mic, time: 0.04))
        _ = queue.offer(4, as: .essential(.speech))
        #expect(queue.offer(5, as: .essential(.state)) == .replacedOldestLevel)
        #expect(queue.offer(6, as: .level(.mic, time: 0.06)) == .replacedOldestLevel)
        #expect(queue.dequeue(upTo: 10) == [1, 4, 5, 6])
    }

    @Test func disconnectsWhenAnEssentialEventCannotBeKept() {
        var queue = subscribed(capacity: 3)
        for event in 1...3 { _ = queue.offer(event, as: .essential(.state)) }
        #expect(queue.offer(4, as: .level(.mic, time: 0.02)) == .droppedLevel)
        #expect(queue.offer(5, as: .essential(.error)) == .disconnect)
        #expect(queue.isClosed)
        #expect(queue.isEmpty)
        #expect(queue.offer(6, as: .essential(.state)) == .skipped)
    }

    @Test func disconnectsAClientThatTakesNothingForTheStallLimit() {
        var queue = Queue(capacity: 2, stallLimit: 1)
        queue.subscribe(Subscription(levelHz: 60))
        _ = queue.offer(1, as: .essential(.state))
        _ = queue.offer(2, as: .level(.mic, time: 0.02))
        // Full from here: each level is lost, and 1 s of audio later the client goes.
        #expect(queue.offer(3, as: .level(.mic, time: 0.04)) == .replacedOldestLevel)
        #expect(queue.offer(4, as: .level(.mic, time: 0.53)) == .replacedOldestLevel)
        #expect(queue.offer(5, as: .essential(.speech)) == .replacedOldestLevel)
        #expect(queue.offer(6, as: .level(.mic, time: 1.03)) == .droppedLevel)
        #expect(queue.offer(7, as: .level(.mic, time: 1.05)) == .disconnectStalled)
        #expect(queue.isClosed)
        #expect(queue.isEmpty)
        #expect(queue.offer(8, as: .essential(.state)) == .skipped)
    }

    @Test func aClientThatTakesSomethingIsNotStalledHoweverFullItsQueue() {
        var queue = Queue(capacity: 2, stallLimit: 1)
        queue.subscribe(Subscription(levelHz: 60))
        var time = 0.0
        for reading in 0..<600 {
            time += 0.02
            #expect(queue.offer(reading, as: .level(.mic, time: time)) != .disconnectStalled)
            // A slow reader: one event every half second of audio, far behind the levels.
            if reading % 25 == 0 { _ = queue.dequeue(upTo: 1) }
        }
        #expect(!queue.isClosed)
        #expect(Queue.defaultStallLimit == 10)
    }

    @Test func unsubscribeForgetsWhatWaits() {
        var queue = subscribed()
        _ = queue.offer(1, as: .essential(.state))
        queue.unsubscribe()
        #expect(queue.isEmpty)
        #expect(queue.subscription == nil)
        #expect(queue.offer(2, as: .essential(.state)) == .skipped)
    }

    @Test func sendsStraightAwayOnlyWhenNothingWaitsOrIsBeingWritten() {
        var queue = subscribed()
        #expect(queue.offer(1, as: .essential(.state)) == .queued(startDraining: true))
        // A drain is under way: the next line waits its turn.
        #expect(queue.offer(2, as: .essential(.state), canSendNow: true) == .queued(startDraining: false))
        #expect(queue.dequeue(upTo: 5) == [1, 2])
        #expect(queue.dequeue(upTo: 5) == [])
        // The loop's write of 1 and 2 has not finished: 3 must not overtake it.
        #expect(queue.offer(3, as: .essential(.state), canSendNow: true) == .queued(startDraining: true))
        #expect(queue.dequeue(upTo: 5) == [3])
        #expect(queue.dequeue(upTo: 5) == [])
        queue.loopWriteFinished()
        #expect(queue.offer(4, as: .essential(.state), canSendNow: true) == .queued(startDraining: true))
        #expect(queue.dequeue(upTo: 5) == [4])
        #expect(queue.dequeue(upTo: 5) == [])
        queue.loopWriteFinished()
        queue.loopWriteFinished()
        #expect(queue.offer(5, as: .level(.mic, time: 0.02), canSendNow: true) == .sendNow)
        #expect(queue.offer(6, as: .essential(.speech), canSendNow: true) == .sendNow)
        #expect(queue.isEmpty)
        // Thinning and topics still come first.
        #expect(queue.offer(7, as: .level(.mic, time: 0.021), canSendNow: true) == .skipped)
    }

    @Test func theRestOfALineGoesFirstAndSurvivesUnsubscribing() {
        var queue = subscribed()
        #expect(queue.offer(1, as: .essential(.state), canSendNow: true) == .sendNow)
        queue.sendFellShort(remainder: 100)
        #expect(queue.offer(2, as: .essential(.state), canSendNow: true) == .queued(startDraining: false))
        #expect(queue.offerResponse(3) == .queued(startDraining: false))
        queue.unsubscribe()
        #expect(queue.dequeue(upTo: 5) == [100, 3])
    }

    @Test func responsesKeepTheirPlaceBehindEvents() {
        var queue = subscribed()
        #expect(queue.offerResponse(1) == .sendNow)
        queue.loopWriteStarted()
        #expect(queue.offerResponse(2) == .queued(startDraining: true))
        #expect(queue.offer(3, as: .essential(.state)) == .queued(startDraining: false))
        #expect(queue.dequeue(upTo: 5) == [2, 3])
        #expect(queue.closeAfterSending() == [])
        #expect(queue.offerResponse(4) == .skipped)
    }

    @Test func closingAfterSendingHandsBackWhatWaits() {
        var queue = subscribed()
        _ = queue.offer(1, as: .essential(.state))
        _ = queue.offerResponse(2)
        #expect(queue.closeAfterSending() == [1, 2])
        #expect(queue.isClosed)
        #expect(queue.offer(3, as: .essential(.state)) == .skipped)
    }

    /// Random offers and takes against the rules written out plainly: bounded, first in first
    /// out, levels dropped oldest first, essential events never lost while the client stays.
    @Test func keepsItsPromisesUnderRandomTraffic() {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<300 {
            let capacity = Int.random(in: 1...8, using: &generator)
            var queue = subscribed(capacity: capacity)
            var model: [(id: Int, isLevel: Bool)] = []
            var delivered: [Int] = []
            var disconnected = false
            var levelTime = 0.0
            for id in 0..<200 where !disconnected {
                if Bool.random(using: &generator) {
                    let wanted = Int.random(in: 1...3, using: &generator)
                    let batch = queue.dequeue(upTo: wanted)
                    #expect(batch == model.prefix(wanted).map(\.id))
                    model.removeFirst(batch.count)
                    delivered += batch
                }
                let isLevel = Bool.random(using: &generator)
                levelTime += 0.02
                let action = queue.offer(id, as: isLevel ? .level(.mic, time: levelTime) : .essential(.state))
                if model.count < capacity {
                    #expect(action == .queued(startDraining: true) || action == .queued(startDraining: false))
                    model.append((id, isLevel))
                } else if let oldestLevel = model.firstIndex(where: \.isLevel) {
                    #expect(action == .replacedOldestLevel)
                    model.remove(at: oldestLevel)
                    model.append((id, isLevel))
                } else if isLevel {
                    #expect(action == .droppedLevel)
                } else {
                    #expect(action == .disconnect)
                    disconnected = true
                    model.removeAll()
                }
                #expect(queue.count == model.count)
                #expect(queue.count <= capacity)
            }
            let rest = queue.dequeue(upTo: capacity)
            #expect(rest == model.map(\.id))
            delivered += rest
            #expect(delivered == delivered.sorted())
        }
    }
}
