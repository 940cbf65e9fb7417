/// The connection to the sound server, as decisions: when to connect, when the connection counts
/// as made (capture running, playback ready or given up), what to tell the daemon when it is
/// lost, how long to wait before trying again. It performs nothing: each input returns the
/// actions for `PulseSession`, the thin driver that makes the libpulse calls, to perform in order.
/// Tested without a server (`PulseConnectionMachineTests`).
struct PulseConnectionMachine: Sendable {
    enum State: Equatable, Sendable {
        /// Not started, or stopped for good.
        case stopped
        /// A context is connecting to the server.
        case connecting
        /// The context is ready; the streams are being opened.
        case settingUp
        /// Capture runs and playback is ready (or has failed without keeping the microphone off).
        case connected
        /// Lost or never reached; the next attempt is scheduled.
        case waitingToRetry
    }

    enum Action: Equatable, Sendable {
        /// Create a context and connect it.
        case connect
        /// Follow the server's events and read its defaults, then open the streams.
        case watchServer
        /// Tell the daemon the connection is made (`reconnected`: it had been made before).
        case reportConnected(reconnected: Bool)
        /// Close the streams and the context, forgetting what lived on the server.
        case tearDown
        /// Tell the daemon the server is lost, and when the next attempt is.
        case reportLoss(PulseError, retryIn: Duration)
        /// The server is still unavailable; already reported for this outage, so only logged.
        case noteStillUnavailable(PulseError, retryIn: Duration)
        /// Schedule the next attempt.
        case retry(after: Duration)
        /// Cancel a scheduled attempt.
        case cancelRetry
    }

    private(set) var state = State.stopped
    private var backoff: RetryBackoff
    private var hasEverConnected = false
    /// The loss was reported for the current outage (failed retries are not reported again).
    private var hasReportedLoss = false

    init(backoff: RetryBackoff) {
        self.backoff = backoff
    }

    var isRunning: Bool { state != .stopped }
    var isConnected: Bool { state == .connected }

    /// The connection is being made, or will be tried again after a loss: what needs it (a reply
    /// asked for at start or while reconnecting) should wait for `reportConnected`, not fail.
    /// Connected without a playback stream, or stopped, there is nothing to wait for.
    var isComingUp: Bool {
        switch state {
        case .connecting, .settingUp, .waitingToRetry: true
        case .stopped, .connected: false
        }
    }

    mutating func start() -> [Action] {
        guard state == .stopped else { return [] }
        state = .connecting
        return [.connect]
    }

    /// The context reached the ready state.
    mutating func contextReady() -> [Action] {
        guard state == .connecting else { return [] }
        state = .settingUp
        return [.watchServer]
    }

    /// Capture runs and playback is ready or has given up: the connection is made.
    mutating func streamsReady() -> [Action] {
        guard state == .settingUp else { return [] }
        state = .connected
        hasReportedLoss = false
        backoff.reset()
        defer { hasEverConnected = true }
        return [.reportConnected(reconnected: hasEverConnected)]
    }

    /// The context failed or ended, connecting failed, or capture failed with no device to fall
    /// back on.
    mutating func failed(_ error: PulseError) -> [Action] {
        switch state {
        case .stopped:
            return [.tearDown]
        case .waitingToRetry:
            // Already handled: libpulse reported the failure through the state callback too.
            return []
        case .connecting, .settingUp, .connected:
            let wasConnected = state == .connected
            state = .waitingToRetry
            let delay = backoff.next()
            let report: Action = wasConnected || !hasReportedLoss
                ? .reportLoss(error, retryIn: delay) : .noteStillUnavailable(error, retryIn: delay)
            hasReportedLoss = true
            return [.tearDown, report, .retry(after: delay)]
        }
    }

    /// The scheduled attempt is due.
    mutating func retryTimerFired() -> [Action] {
        guard state == .waitingToRetry else { return [.cancelRetry] }
        state = .connecting
        return [.cancelRetry, .connect]
    }

    /// Stops for good; the driver then closes what is open without reporting it.
    mutating func stop() -> [Action] {
        guard state != .stopped else { return [] }
        state = .stopped
        return [.cancelRetry]
    }
}
