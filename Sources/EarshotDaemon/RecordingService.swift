import ServiceLifecycle

/// Writes the debug recorder's utterances until the daemon stops; what is queued at shutdown
/// is still written.
struct RecordingService: Service {
    let archive: RecordingArchive

    func run() async {
        guard let recorder = archive.recorder else { return }
        await archive.applyRetention()
        await withGracefulShutdownHandler {
            for await job in recorder.jobs { await archive.perform(job) }
        } onGracefulShutdown: {
            recorder.close()
        }
    }
}
