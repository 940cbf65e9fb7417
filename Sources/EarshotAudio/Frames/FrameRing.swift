import Synchronization

/// A fixed-capacity, lock-free queue of frames between one producer thread (the audio callback)
/// and one consumer thread (the pipeline).
///
/// All storage is allocated up front: `push` never allocates, locks or blocks, so it is safe on a
/// real-time audio thread. When the consumer falls behind and the ring is full, the newest frame is
/// dropped and counted in `overflowCount`; its index is spent anyway, so the consumer sees the gap
/// and audio time keeps matching the microphone's clock.
///
/// The ring stamps each pushed frame with the next index, so indices run on for the ring's
/// whole life (across sound-server reconnects when one ring serves the whole daemon).
public final class FrameRing: @unchecked Sendable {
    // @unchecked: `slots` is shared memory, but each slot is touched by one side at a time.
    // The producer only writes slots in [tail, head + capacity) and publishes them with a
    // releasing store of `tail`; the consumer only reads slots in [head, tail) and hands them
    // back with a releasing store of `head`.

    public let capacity: Int
    private let slots: UnsafeMutablePointer<AudioFrame>
    /// Frames ever taken by the consumer.
    private let head = Atomic<Int>(0)
    /// Frames ever stored by the producer.
    private let tail = Atomic<Int>(0)
    /// Frames ever offered by the producer, stored or dropped: the next frame's index.
    private let offered = Atomic<Int>(0)
    private let overflows = Atomic<Int>(0)

    /// A ring holding up to `capacity` frames (200 frames are 2 s of audio).
    public init(capacity: Int) {
        precondition(capacity > 0, "a FrameRing needs room for at least one frame")
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: .silence(index: 0), count: capacity)
    }

    /// A ring holding `duration` of audio.
    public convenience init(holding duration: Duration) {
        let frames = duration / .milliseconds(Int(AudioFrame.duration * 1000))
        self.init(capacity: max(1, Int(frames.rounded(.up))))
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Producer only. Stores `samples` as the next frame; returns false (and counts an overflow)
    /// when the ring is full.
    @discardableResult
    public func push(_ samples: borrowing [160 of Float]) -> Bool {
        let index = offered.load(ordering: .relaxed)
        offered.store(index + 1, ordering: .relaxed)
        let writePosition = tail.load(ordering: .relaxed)
        if writePosition - head.load(ordering: .acquiring) >= capacity {
            overflows.add(1, ordering: .relaxed)
            return false
        }
        (slots + writePosition % capacity).pointee = AudioFrame(index: index, samples: copy samples)
        tail.store(writePosition + 1, ordering: .releasing)
        return true
    }

    /// Consumer only. The oldest frame, or nil when the ring is empty.
    public func pop() -> AudioFrame? {
        let readPosition = head.load(ordering: .relaxed)
        guard readPosition < tail.load(ordering: .acquiring) else { return nil }
        let frame = slots[readPosition % capacity]
        head.store(readPosition + 1, ordering: .releasing)
        return frame
    }

    /// Frames waiting for the consumer (a snapshot: the other side may move it at once).
    public var count: Int {
        let readPosition = head.load(ordering: .acquiring)
        return tail.load(ordering: .acquiring) - readPosition
    }

    public var isEmpty: Bool { count <= 0 }

    /// Frames offered by the producer so far, stored or dropped; also the index the next one gets.
    public var offeredCount: Int { offered.load(ordering: .relaxed) }

    /// Frames dropped because the ring was full.
    public var overflowCount: Int { overflows.load(ordering: .relaxed) }
}
