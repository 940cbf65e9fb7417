import EarshotAudio
import Synchronization

/// Cuts the capture stream's s16le bytes into exact 10 ms frames and hands each to the frame
/// handler (on this same thread) or, without one, pushes it into the ring.
///
/// The server's fragments need not line up with frames, so a partly filled frame waits here for
/// the next fragment. Runs on the mainloop thread: no allocation, no lock.
final class CaptureFrameAssembler: @unchecked Sendable {
    // @unchecked: `partial`, `handler` and `nextIndex` are touched only on the mainloop thread or
    // with its lock held; other threads read the atomic counters.
    let ring: FrameRing
    /// Takes each completed frame where it is completed: no copy into the ring, no second thread.
    var handler: (@Sendable (AudioFrame) -> Void)?
    private var partial = PartialFrame()
    private let completed = Atomic<Int>(0)
    private let holes = Atomic<Int>(0)
    /// When the last fragment arrived, in `CLOCK_MONOTONIC` nanoseconds; `noArrival` after a cork,
    /// a stream's loss or a new stream, so the wait for the first fragment of a capture is not
    /// counted as a gap. Atomic only to spare the audio path the exclusivity checks of a class's
    /// stored property; it is touched on the mainloop thread alone.
    private let lastArrivalNanoseconds = Atomic<Int>(CaptureFrameAssembler.noArrival)
    private static let noArrival = Int.min
    private let longestGapNanoseconds = Atomic<Int>(0)

    /// The frame being filled. Methods work on a local copy and store it back once, so the
    /// per-sample loop pays no exclusivity checks on class storage.
    private struct PartialFrame {
        var samples: [160 of Float] = .init(repeating: 0)
        var count = 0
        var hasHole = false
        /// The low byte of a sample split across two fragments.
        var straddlingByte: UInt8?
    }

    init(ring: FrameRing) {
        self.ring = ring
    }

    /// Frames completed so far, the next frame's index: indices run on across corks and reconnects.
    var frameCount: Int { completed.load(ordering: .relaxed) }

    /// Frames that contained audio the server lost (filled with silence).
    var holeFrameCount: Int { holes.load(ordering: .relaxed) }

    /// The longest wait between two fragments from the server while capturing: how late the
    /// audio path ever got its audio (about 10 ms when all is well).
    var longestFragmentGap: Duration { .nanoseconds(longestGapNanoseconds.load(ordering: .relaxed)) }

    /// Notes that fragments arrived at `now`, monotonic nanoseconds (once per capture callback:
    /// one clock read, no lock).
    func noteFragmentArrival(atNanoseconds now: Int) {
        let last = lastArrivalNanoseconds.load(ordering: .relaxed)
        if last != Self.noArrival {
            let gap = now - last
            if gap > longestGapNanoseconds.load(ordering: .relaxed) { longestGapNanoseconds.store(gap, ordering: .relaxed) }
        }
        lastArrivalNanoseconds.store(now, ordering: .relaxed)
    }

    /// Forgets when the last fragment came: capture pauses (cork) or starts over (a new stream).
    func captureInterrupted() {
        lastArrivalNanoseconds.store(Self.noArrival, ordering: .relaxed)
    }

    /// Appends little-endian 16-bit samples; returns how many frames were completed.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        var frame = partial
        defer { partial = frame }
        var completed = 0
        var offset = 0
        if let low = frame.straddlingByte, !bytes.isEmpty {
            frame.straddlingByte = nil
            let sample = Int16(bitPattern: UInt16(low) | UInt16(bytes[0]) << 8)
            completed += add(Float(sample) / 32768, to: &frame)
            offset = 1
        }
        while offset + 1 < bytes.count {
            let sample = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))
            completed += add(Float(sample) / 32768, to: &frame)
            offset += 2
        }
        if offset < bytes.count { frame.straddlingByte = bytes[offset] }
        return completed
    }

    /// Appends `byteCount` bytes of silence for a hole; returns how many frames were completed.
    func appendHole(byteCount: Int) -> Int {
        var frame = partial
        defer { partial = frame }
        frame.straddlingByte = nil
        var completed = 0
        for _ in 0..<(byteCount / 2) {
            frame.hasHole = true
            completed += add(0, to: &frame)
        }
        return completed
    }

    /// Delivers `count` whole frames of silence (the microphone is silenced, time runs on).
    func appendSilentFrames(_ count: Int) {
        guard count > 0 else { return }
        partial = PartialFrame()
        let silence = PartialFrame()
        for _ in 0..<count { deliver(silence.samples) }
    }

    /// Forgets a partial frame (the stream it came from is gone).
    func discardPartialFrame() {
        partial = PartialFrame()
        captureInterrupted()
    }

    @inline(__always)
    private func add(_ sample: Float, to frame: inout PartialFrame) -> Int {
        frame.samples[frame.count] = sample
        frame.count += 1
        guard frame.count == AudioFrame.sampleCount else { return 0 }
        if frame.hasHole { holes.add(1, ordering: .relaxed) }
        deliver(frame.samples)
        frame.count = 0
        frame.hasHole = false
        return 1
    }

    private func deliver(_ samples: borrowing [160 of Float]) {
        let index = completed.load(ordering: .relaxed)
        completed.store(index + 1, ordering: .relaxed)
        if let handler {
            handler(AudioFrame(index: index, samples: copy samples))
        } else {
            ring.push(samples)
        }
    }
}
