// Waits for the connection, for playback asked for while it is being made: at start and after a
// reconnect the streams come up some milliseconds after the server answers, and a reply asked for
// in between must not be lost. Whether to wait is the connection machine's call (`isComingUp`);
// a wait ends when the connection is reported, at its deadline, or when the engine stops.
// Everything here runs with the mainloop lock held and only resumes continuations: the mainloop
// thread never waits on a client.
extension PulseSession {
    struct ConnectionWait {
        let id: Int
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// Answers true once `play` can be heard (at once when it can now), false when it cannot be
    /// within `bound`.
    func waitUntilPlayable(id: Int, within bound: Duration, _ continuation: CheckedContinuation<Bool, Never>) {
        if playbackStream?.isReady == true { return continuation.resume(returning: true) }
        guard connection.isComingUp else { return continuation.resume(returning: false) }
        logger.debug("playback waits for the sound server", metadata: ["up_to": "\(bound)"])
        connectionWaits.append(ConnectionWait(id: id, deadline: ContinuousClock.now + bound, continuation: continuation))
        armConnectionWaitTimer()
    }

    /// The waiting task was cancelled: its wait ends now, unanswered by the server.
    func cancelConnectionWait(id: Int) {
        guard let index = connectionWaits.firstIndex(where: { $0.id == id }) else { return }
        let wait = connectionWaits.remove(at: index)
        armConnectionWaitTimer()
        wait.continuation.resume(returning: false)
    }

    /// The connection was reported made, or the engine stops: every wait is answered with
    /// whether there is a playback stream (connected without a sink, there is none).
    func answerConnectionWaits() {
        guard !connectionWaits.isEmpty else { return }
        let playable = playbackStream?.isReady == true
        let waits = connectionWaits
        connectionWaits.removeAll()
        armConnectionWaitTimer()
        for wait in waits { wait.continuation.resume(returning: playable) }
    }

    /// One timer for the earliest deadline; none while nothing waits.
    private func armConnectionWaitTimer() {
        guard let deadline = connectionWaits.map(\.deadline).min() else {
            if let connectionWaitTimer { mainloop.freeTimer(connectionWaitTimer) }
            connectionWaitTimer = nil
            return
        }
        let delay = max(.zero, deadline - ContinuousClock.now)
        if let connectionWaitTimer {
            mainloop.restartTimer(connectionWaitTimer, after: delay)
        } else {
            connectionWaitTimer = mainloop.makeTimer(after: delay, callback: { _, _, _, userdata in
                PulseSession.from(userdata)?.connectionWaitDeadlinePassed()
            }, userdata: userdata)
        }
    }

    private func connectionWaitDeadlinePassed() {
        let now = ContinuousClock.now
        let expired = connectionWaits.filter { $0.deadline <= now }
        connectionWaits.removeAll { $0.deadline <= now }
        // The timer follows the wall clock, the deadlines do not: one that fired early re-arms.
        armConnectionWaitTimer()
        if !expired.isEmpty {
            logger.debug("playback gave up waiting for the sound server", metadata: ["waits": "\(expired.count)"])
        }
        for wait in expired { wait.continuation.resume(returning: false) }
    }
}
