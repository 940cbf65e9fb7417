import EarshotPulse
import Synchronization

/// Every event an engine sends, with when the test saw it.
final class EventLog: Sendable {
    struct Entry: Sendable {
        var event: PulseEngineEvent
        var time: ContinuousClock.Instant
    }

    private let entries = Mutex<[Entry]>([])

    private init() {}

    /// Starts reading `engine.events` (until the engine stops).
    static func recording(_ engine: PulseAudioEngine) -> EventLog {
        let log = EventLog()
        Task {
            for await event in engine.events {
                log.entries.withLock { $0.append(Entry(event: event, time: .now)) }
            }
        }
        return log
    }

    var all: [Entry] { entries.withLock { $0 } }
    var events: [PulseEngineEvent] { all.map(\.event) }

    /// The first event from position `start` on that `matches`, waiting up to `timeout`.
    func first(
        from start: Int = 0, within timeout: Duration = .seconds(5), where matches: (PulseEngineEvent) -> Bool
    ) async -> Entry? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let entry = all.dropFirst(start).first(where: { matches($0.event) }) { return entry }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    func firstConnected(from start: Int = 0, within timeout: Duration = .seconds(5)) async -> Entry? {
        await first(from: start, within: timeout) { if case .connected = $0 { true } else { false } }
    }
}
