@testable import EarshotPulse
import Testing

/// The sound-server connection's decisions, without a server: each row feeds inputs and checks
/// the actions the driver is told to perform.
@Suite struct PulseConnectionMachineTests {
    typealias Machine = PulseConnectionMachine
    static let refused = PulseError(.connectionRefused, while: "connect to the sound server")
    static let terminated = PulseError(.connectionTerminated, while: "stay connected to the sound server")

    static func connected() -> Machine {
        var machine = Machine(backoff: RetryBackoff())
        _ = machine.start()
        _ = machine.contextReady()
        _ = machine.streamsReady()
        return machine
    }

    @Test func startingConnectsAndTheStreamsMakeTheConnection() {
        var machine = Machine(backoff: RetryBackoff())
        #expect(machine.start() == [.connect])
        #expect(machine.start() == [], "a second start does nothing")
        #expect(machine.streamsReady() == [], "no streams before the context is ready")
        #expect(machine.contextReady() == [.watchServer])
        #expect(!machine.isConnected)
        #expect(machine.streamsReady() == [.reportConnected(reconnected: false)])
        #expect(machine.isConnected)
        #expect(machine.streamsReady() == [], "reported once")
    }

    @Test func aServerThatIsNotThereIsReportedOnceAndRetriedWithBackoff() {
        var machine = Machine(backoff: RetryBackoff())
        _ = machine.start()
        #expect(machine.failed(Self.refused) == [.tearDown, .reportLoss(Self.refused, retryIn: .milliseconds(100)), .retry(after: .milliseconds(100))])
        #expect(machine.failed(Self.refused) == [], "libpulse's second report of the same failure")
        var delays: [Duration] = []
        for _ in 0..<4 {
            #expect(machine.retryTimerFired() == [.cancelRetry, .connect])
            let actions = machine.failed(Self.refused)
            guard case .noteStillUnavailable(_, let delay) = actions[1] else {
                Issue.record("reported again: \(actions)")
                continue
            }
            #expect(actions == [.tearDown, .noteStillUnavailable(Self.refused, retryIn: delay), .retry(after: delay)])
            delays.append(delay)
        }
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500)])
    }

    @Test func aLostConnectionIsReportedAndTheReconnectionCounted() {
        var machine = Self.connected()
        #expect(machine.failed(Self.terminated) == [.tearDown, .reportLoss(Self.terminated, retryIn: .milliseconds(100)), .retry(after: .milliseconds(100))])
        #expect(!machine.isConnected && machine.isRunning)
        #expect(machine.retryTimerFired() == [.cancelRetry, .connect])
        #expect(machine.contextReady() == [.watchServer])
        #expect(machine.streamsReady() == [.reportConnected(reconnected: true)])
        // The backoff starts over, and a new outage is reported again.
        #expect(machine.failed(Self.terminated)[1] == .reportLoss(Self.terminated, retryIn: .milliseconds(100)))
    }

    @Test func captureFailingWhileTheStreamsAreSetUpIsALostConnection() {
        var machine = Machine(backoff: RetryBackoff())
        _ = machine.start()
        _ = machine.contextReady()
        let noSource = PulseError(.noEntity, while: "record from the source")
        #expect(machine.failed(noSource) == [.tearDown, .reportLoss(noSource, retryIn: .milliseconds(100)), .retry(after: .milliseconds(100))])
    }

    @Test func stoppingCancelsTheRetryAndEndsTheMachine() {
        var machine = Machine(backoff: RetryBackoff())
        _ = machine.start()
        _ = machine.failed(Self.refused)
        #expect(machine.stop() == [.cancelRetry])
        #expect(!machine.isRunning)
        #expect(machine.retryTimerFired() == [.cancelRetry], "a timer that fires late connects nothing")
        #expect(machine.failed(Self.refused) == [.tearDown], "a failure after stopping is only closed")
        #expect(machine.stop() == [])
        #expect(machine.start() == [.connect], "started again, it connects")
    }

    /// Playback waits for the connection while it is being made or retried (issue 22), never
    /// once it is made, nor before the start or after the stop.
    @Test func playbackWaitsOnlyWhileTheConnectionIsComingUp() {
        var machine = Machine(backoff: RetryBackoff())
        #expect(!machine.isComingUp, "not started")
        _ = machine.start()
        #expect(machine.isComingUp, "connecting")
        _ = machine.failed(Self.refused)
        #expect(machine.isComingUp, "waiting to retry")
        _ = machine.retryTimerFired()
        _ = machine.contextReady()
        #expect(machine.isComingUp, "the streams are being set up")
        _ = machine.streamsReady()
        #expect(!machine.isComingUp, "connected: a missing playback stream is not coming")
        _ = machine.failed(Self.terminated)
        #expect(machine.isComingUp, "lost, and retried")
        _ = machine.stop()
        #expect(!machine.isComingUp, "stopped")
    }
}
