import EarshotAudio
import EarshotPulse
import Foundation
import Synchronization

/// A consumer thread like the daemon's: waits for frames, pops them, keeps them with their arrival
/// time.
final class FrameCollector: Sendable {
    struct Arrival: Sendable {
        var frame: AudioFrame
        var time: ContinuousClock.Instant
    }

    private let arrivals = Mutex<[Arrival]>([])
    private let isRunning = Atomic<Bool>(true)
    private let finished = DispatchSemaphore(value: 0)

    init(_ engine: PulseAudioEngine) {
        // The thread holds the collector until `stop`.
        Thread { [self] in
            while isRunning.load(ordering: .relaxed) {
                guard engine.waitForFrames(timeout: .milliseconds(20)) else { continue }
                while let frame = engine.popFrame() {
                    let now = ContinuousClock.now
                    arrivals.withLock { $0.append(Arrival(frame: frame, time: now)) }
                }
            }
            finished.signal()
        }.start()
    }

    func stop() {
        guard isRunning.exchange(false, ordering: .relaxed) else { return }
        finished.wait()
    }

    var all: [Arrival] { arrivals.withLock { $0 } }
    var count: Int { arrivals.withLock { $0.count } }

    /// The samples of every frame from position `start` on, in order.
    func samples(from start: Int = 0) -> [Float] {
        arrivals.withLock { arrivals in
            var samples: [Float] = []
            samples.reserveCapacity(max(0, arrivals.count - start) * AudioFrame.sampleCount)
            for arrival in arrivals.dropFirst(start) {
                for i in 0..<AudioFrame.sampleCount { samples.append(arrival.frame.samples[i]) }
            }
            return samples
        }
    }

    /// Waits until at least `count` frames have arrived; false on timeout.
    func waitUntil(count: Int, within timeout: Duration = .seconds(5)) async -> Bool {
        await waitUntil(within: timeout) { $0.count >= count }
    }

    /// Waits until `condition` holds for the frames so far; false on timeout.
    func waitUntil(within timeout: Duration, _ condition: ([Arrival]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(all) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(all)
    }
}
