import EarshotTestSupport
import Foundation
import Synchronization

/// Maps the sample indices of a growing `parec` recording (16 kHz) to wall time:
/// wall(i) ≈ offset + i / 16000.
///
/// parec writes in real time, so every look at the file bounds the offset from above: the
/// samples already written were captured no later than the look, hence
/// offset ≤ look time − samples so far / 16000. A thread looks every ~2 ms and keeps the
/// smallest bound. The bound is tight when a look falls just after parec wrote a fragment, so
/// what remains is parec's own delivery delay (it asks for 10 ms fragments): the mapping places
/// sounds up to ~10 ms late, never early.
final class RecordingClock: Sendable {
    static let sampleRate = 16_000.0

    let recording: PulseTestRecording
    private let bounds = Mutex<[Double]>([])
    private let running = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching `recording` (just started).
    init(_ recording: PulseTestRecording) {
        self.recording = recording
        // Weak, so that a clock dropped without `stop()` ends its thread too.
        let thread = Thread { [weak self] in
            while let clock = self, clock.running.load(ordering: .acquiring) {
                clock.look()
                usleep(2_000)
            }
            self?.finished.signal()
        }
        thread.start()
    }

    deinit {
        running.store(false, ordering: .releasing)
    }

    /// Now, in Unix seconds (the clock the daemon's `wall` uses).
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Stops watching and the recording; returns what was recorded.
    func stop() -> [Float] {
        if running.exchange(false, ordering: .acquiringAndReleasing) { finished.wait() }
        return recording.stop()
    }

    /// The best estimate of the offset so far.
    var offset: Double {
        bounds.withLock { $0.min() ?? .nan }
    }

    /// How far the median look lay above the best one, in seconds: the spread of parec's
    /// delivery, a measure of how loose a single look would have been.
    var medianSlack: Double {
        bounds.withLock { bounds in
            guard let best = bounds.min() else { return .nan }
            return bounds.sorted()[bounds.count / 2] - best
        }
    }

    /// The wall time of sample `index`.
    func wall(_ index: Int) -> Double {
        offset + Double(index) / Self.sampleRate
    }

    /// The loudest of the last `count` samples written so far (0…1).
    func recentPeak(count: Int) -> Float {
        guard let file = FileHandle(forReadingAtPath: recording.path) else { return 0 }
        defer { try? file.close() }
        guard let end = try? file.seekToEnd(), end >= 2 else { return 0 }
        let bytes = min(UInt64(count * 2), end - end % 2)
        try? file.seek(toOffset: end - end % 2 - bytes)
        guard let data = try? file.read(upToCount: Int(bytes)) else { return 0 }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).reduce(Float(0)) { peak, index in
                max(peak, abs(Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32768))
            }
        }
    }

    private func look() {
        var info = stat()
        guard stat(recording.path, &info) == 0, info.st_size >= 2 else { return }
        // The time is taken after the look: the bound must hold for what was seen.
        let bound = Self.now() - Double(info.st_size / 2) / Self.sampleRate
        bounds.withLock { $0.append(bound) }
    }
}
