import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Foundation
import Logging

/// A test server, an engine connected to it and the engine's events: the setup of every live test.
struct LiveAudio {
    let server: PulseTestServer
    let engine: PulseAudioEngine
    let events: EventLog

    struct NotConnected: Error, CustomStringConvertible {
        var log: String
        var description: String { "the engine did not connect to the test server; server log:\n\(log)" }
    }

    /// Starts a server and an engine (configured by `configure`), and waits for `.connected`.
    static func start(
        server existing: PulseTestServer? = nil, _ configure: (inout PulseAudioEngine.Configuration) -> Void = { _ in }
    ) async throws -> LiveAudio {
        let server: PulseTestServer
        if let existing {
            server = existing
        } else {
            server = try await onDedicatedThread { try PulseTestServer() }
        }
        var configuration = PulseAudioEngine.Configuration(server: server.serverAddress, applicationName: "Earshot tests")
        configure(&configuration)
        let engine = try PulseAudioEngine(configuration: configuration, logger: logger)
        let events = EventLog.recording(engine)
        try engine.start()
        guard await events.firstConnected() != nil else { throw NotConnected(log: server.logTail) }
        return LiveAudio(server: server, engine: engine, events: events)
    }

    /// Quiet unless EARSHOT_TEST_LOG is set, then everything.
    static var logger: Logger {
        var logger = Logger(label: "earshot.pulse.test")
        logger.logLevel = ProcessInfo.processInfo.environment["EARSHOT_TEST_LOG"] == nil ? .critical : .trace
        return logger
    }

    func stop() {
        engine.stop()
        server.stop()
    }

    /// When `condition` first held, checked every half millisecond on a thread of its own (so the
    /// time is right even while the tests' shared threads are busy); nil if not within `timeout`.
    static func instant(within timeout: Duration, _ condition: @escaping @Sendable () -> Bool) async -> ContinuousClock.Instant? {
        await onDedicatedThread {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if condition() { return ContinuousClock.now }
                usleep(500)
            }
            return nil
        }
    }

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/endpointer/\(name)").path
    }
}
