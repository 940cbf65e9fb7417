import ServiceLifecycle

/// Hands the speech player's reports to the session until the daemon stops.
struct PlaybackService: Service {
    let reports: AsyncStream<PlaybackReport>
    let session: VoiceSession

    func run() async throws {
        for await report in reports.cancelOnGracefulShutdown() { session.handle(report) }
        session.player?.stop(reply: nil)
    }
}
