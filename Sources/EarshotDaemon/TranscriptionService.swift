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
