import EarshotAudio
import EarshotBase
import Foundation
import Synchronization
import Testing

@Suite("FrameRing")
struct FrameRingTests {
    static func samples(_ value: Float) -> [160 of Float] { .init(repeating: value) }

    @Test func popsFramesInOrderWithConsecutiveIndices() {
        let ring = FrameRing(capacity: 4)
        #expect(ring.pop() == nil)
        for value in 0..<3 { #expect(ring.push(Self.samples(Float(value)))) }
        #expect(ring.count == 3)
        for expected in 0..<3 {
            let frame = ring.pop()
            #expect(frame?.index == expected)
            #expect(frame?.samples[159] == Float(expected))
        }
        #expect(ring.pop() == nil)
        #expect(ring.isEmpty)
        ring.push(Self.samples(9))
        #expect(ring.pop()?.index == 3)
    }

    @Test func fullRingDropsTheNewestFrameAndCountsIt() {
        let ring = FrameRing(capacity: 2)
        #expect(ring.push(Self.samples(0)))
        #expect(ring.push(Self.samples(1)))
        #expect(!ring.push(Self.samples(2)))
        #expect(ring.overflowCount == 1)
        #expect(ring.offeredCount == 3)
        #expect(ring.pop()?.index == 0)
        #expect(ring.push(Self.samples(3)))
        #expect(ring.pop()?.index == 1)
        // The dropped frame spent index 2: the consumer sees the gap.
        #expect(ring.pop()?.index == 3)
        #expect(ring.pop() == nil)
    }

    @Test func capacityFromDuration() {
        #expect(FrameRing(holding: .seconds(2)).capacity == 200)
        #expect(FrameRing(holding: .milliseconds(15)).capacity == 2)
    }

    /// One producer thread and one consumer thread at full speed: every frame arrives whole,
    /// in order, or is counted as dropped.
    @Test func twoThreadsNeitherTearNorLoseFrames() async {
        let ring = FrameRing(capacity: 64)
        let total = 200_000
        let producerDone = Atomic<Bool>(false)
        let problems = Locked<[String]>([])
        let received = Locked(0)
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let consumer = Thread {
                var count = 0
                var lastIndex = -1
                var slept = 0
                while true {
                    guard let frame = ring.pop() else {
                        if producerDone.load(ordering: .acquiring) && ring.isEmpty { break }
                        continue
                    }
                    let marker = Float(frame.index)
                    for i in 0..<160 where frame.samples[i] != marker {
                        problems.withLock { $0.append("frame \(frame.index) sample \(i) is \(frame.samples[i])") }
                        break
                    }
                    if frame.index <= lastIndex { problems.withLock { $0.append("index \(frame.index) after \(lastIndex)") } }
                    lastIndex = frame.index
                    count += 1
                    // Fall behind now and then so the producer overflows.
                    if count % 10_000 == 0, slept < 5 { slept += 1; usleep(2_000) }
                }
                received.withLock { $0 = count }
                finished.resume()
            }
            let producer = Thread {
                for value in 0..<total { ring.push(Self.samples(Float(value))) }
                producerDone.store(true, ordering: .releasing)
            }
            consumer.start()
            producer.start()
        }
        #expect(problems.withLock { $0 }.isEmpty)
        #expect(received.withLock { $0 } + ring.overflowCount == total)
        #expect(ring.offeredCount == total)
    }
}
