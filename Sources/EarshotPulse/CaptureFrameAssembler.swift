import EarshotAudio
import Synchronization

/// Cuts the capture stream's s16le bytes into exact 10 ms frames and pushes them into the ring.
///
/// The server's fragments need not line up with frames, so a partly filled frame waits here for
/// the next fragment. Runs on the mainloop thread: no allocation, no lock.
final class CaptureFrameAssembler: @unchecked Sendable {
    // @unchecked: everything but the atomics is touched only by the producer (the mainloop
    // thread); other threads read the counters.
    let ring: FrameRing
    private var pending: [160 of Float] = .init(repeating: 0)
    private var pendingCount = 0
    private var pendingHasHole = false
    /// An odd byte left over when a fragment ended mid-sample.
    private var straddlingByte: UInt8?
    private let holes = Atomic<Int>(0)

    init(ring: FrameRing) {
        self.ring = ring
    }

    /// Frames that contained audio the server lost (filled with silence).
    var holeFrameCount: Int { holes.load(ordering: .relaxed) }

    /// Appends little-endian 16-bit samples; returns how many frames were completed.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        var completed = 0
        var offset = 0
        if let low = straddlingByte, !bytes.isEmpty {
            straddlingByte = nil
            let sample = Int16(bitPattern: UInt16(low) | UInt16(bytes[0]) << 8)
            completed += appendSample(Float(sample) / 32768)
            offset = 1
        }
        while offset + 1 < bytes.count {
            let sample = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))
            completed += appendSample(Float(sample) / 32768)
            offset += 2
        }
        if offset < bytes.count { straddlingByte = bytes[offset] }
        return completed
    }

    /// Appends `byteCount` bytes of silence for a hole; returns how many frames were completed.
    func appendHole(byteCount: Int) -> Int {
        var completed = 0
        straddlingByte = nil
        for _ in 0..<(byteCount / 2) {
            pendingHasHole = true
            completed += appendSample(0)
        }
        return completed
    }

    /// Forgets a partial frame (the stream it came from is gone).
    func discardPartialFrame() {
        pendingCount = 0
        pendingHasHole = false
        straddlingByte = nil
    }

    @inline(__always)
    private func appendSample(_ sample: Float) -> Int {
        pending[pendingCount] = sample
        pendingCount += 1
        guard pendingCount == AudioFrame.sampleCount else { return 0 }
        if pendingHasHole { holes.add(1, ordering: .relaxed) }
        ring.push(pending)
        pendingCount = 0
        pendingHasHole = false
        return 1
    }
}
