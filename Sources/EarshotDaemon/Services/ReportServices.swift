import EarshotConversation
import ServiceLifecycle

/// Hands the transcription queue's reports to the session until the daemon stops.
struct TranscriptionService: Service {
    let reports: AsyncStream<TranscriptionReport>
    let session: VoiceSession

    func run() async throws {
        await withGracefulShutdownHandler {
            for await report in reports.cancelOnGracefulShutdown() { session.handle(report) }
        } onGracefulShutdown: {
            session.transcription?.close()
        }
    }
}

/// Hands the speech player's reports to the session until the daemon stops.
struct PlaybackService: Service {
    let reports: AsyncStream<PlaybackReport>
    let session: VoiceSession

    func run() async throws {
        for await report in reports.cancelOnGracefulShutdown() { session.handle(report) }
        session.player?.stop(reply: nil)
    }
}
