import CPulse
@testable import EarshotPulse
import Testing

@Suite("Engine pieces that need no server")
struct PulseEngineUnitTests {
    @Test func backoffDoublesUpToHalfASecond() {
        var backoff = RetryBackoff()
        let delays = (0..<6).map { _ in backoff.next() }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500), .milliseconds(500)])
        backoff.reset()
        #expect(backoff.next() == .milliseconds(100))
    }

    @Test func errorsCarryLibpulseWordsAndTheAttempt() {
        let error = PulseError(.connectionRefused, while: "connect to the sound server")
        #expect(error.message == "Connection refused")
        #expect(error.description == "connect to the sound server: Connection refused")
        #expect(error.isServerUnavailable)
        #expect(!error.isUnknownEntity)
        let missing = PulseError(.noEntity, while: "use the source \"usb\"")
        #expect(missing.message == "No such entity")
        #expect(missing.isUnknownEntity && !missing.isServerUnavailable)
    }

    @Test func playbackStartsWithOneFrameBufferedNotTheWholeTarget() {
        let attributes = PulseSession.playbackBufferAttributes(latency: .milliseconds(40))
        #expect(attributes.tlength == 640 * 4, "40 ms of float samples at 16 kHz")
        #expect(attributes.prebuf == 160 * 4, "one 10 ms frame")
        #expect(attributes.minreq == UInt32.max && attributes.maxlength == UInt32.max, "the server's defaults")
        let short = PulseSession.playbackBufferAttributes(latency: .milliseconds(5))
        #expect(short.prebuf == short.tlength, "never more than the target")
    }

    @Test func playbackQueueHandsOutSamplesInOrder() {
        var queue = PlaybackQueue()
        queue.append([1, 2, 3])
        queue.append([])
        queue.append([4, 5])
        var out: [Float] = []
        while !queue.isEmpty {
            _ = queue.consume(upTo: 2) { out.append(contentsOf: $0) }
        }
        #expect(out == [1, 2, 3, 4, 5])
        queue.append([6])
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.consume(upTo: 10) { _ in Issue.record("an empty queue handed out samples") } == 0)
    }

    /// The engine's lifecycle without any server: a refused connection is reported once, and
    /// `stop` is quick and final.
    @Test func unreachableServerIsReportedOnceThenRetriedQuietly() async throws {
        let engine = try PulseAudioEngine(configuration: .init(server: "unix:/nonexistent/earshot/native"), logger: LiveAudio.logger)
        let events = EventLog.recording(engine)
        try engine.start()
        try engine.start()
        try await Task.sleep(for: .milliseconds(500))
        let seen = events.events
        #expect(seen.count == 1, "\(seen)")
        if case .disconnected(let error, let retryIn)? = seen.first {
            #expect(error.code == .connectionRefused)
            #expect(retryIn == .milliseconds(100))
        } else {
            Issue.record("expected .disconnected, got \(seen)")
        }
        #expect(engine.status == PulseEngineStatus())
        #expect(!engine.waitForFrames(timeout: .milliseconds(20)))
        engine.stop()
    }
}
