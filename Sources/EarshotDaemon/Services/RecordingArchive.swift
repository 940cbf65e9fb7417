import EarshotBase
import EarshotProtocol
import EarshotRecordings
import Logging
import ServiceLifecycle

/// The daemon's recordings on disk: writes each turn the debug recorder hands on (its audio as
/// Ogg Opus and its details as JSON), keeps only the newest `keptTurns`, and forgets them all
/// on request, whether recording is on now or was on in an earlier run.
actor RecordingArchive {
    nonisolated let store: RecordingStore
    /// How many turns debug recording keeps; 0 when it is off.
    nonisolated let keptTurns: Int
    /// The pipeline's side; nil when recording is off.
    nonisolated let recorder: DebugRecorder?
    private let run: String
    private let logger: Logger
    /// The details of this run's turns still on disk, rewritten as their transcript and reply arrive.
    private var details: [Int: RecordedTurnDetails] = [:]
    /// Final transcripts that came before their turn's audio was written (an eager end's, ready
    /// while the end was confirmed), by turn, for the details written with it.
    private var earlyTranscripts: [Int: String] = [:]
    /// Jobs from generations before this one were recorded before a `forget`: they are dropped.
    private var currentGeneration = 0

    /// The most turns `--debug-turns` keeps.
    static let maximumKeptTurns = 50
    /// Opus at 32 kbit/s: speech stays clear enough to hear what went wrong.
    static let bitrate = 32_000

    init(store: RecordingStore, keptTurns: Int, run: String, logger: Logger) {
        self.store = store
        self.keptTurns = keptTurns
        self.recorder = keptTurns > 0 ? DebugRecorder() : nil
        self.run = run
        self.logger = logger
    }

    /// Deletes recordings beyond the newest `keptTurns` left by earlier runs (when recording is on).
    func applyRetention() {
        guard keptTurns > 0 else { return }
        do {
            let found = try store.inventory()
            removeSurplus(found)
        } catch {
            logger.warning("\(error.message)")
        }
    }

    func perform(_ job: RecordingJob) {
        switch job {
        case .utterance(let utterance):
            if utterance.generation >= currentGeneration { write(utterance) }
            recorder?.recycle(utterance.samples)
        case .transcript(let turn, let text, let generation):
            guard details[turn] != nil else {
                if generation >= currentGeneration { earlyTranscripts[turn] = text }
                return
            }
            update(turn: turn, generation: generation) { $0.transcript = text }
        case .reply(let turn, let text, let generation):
            update(turn: turn, generation: generation) { $0.reply = text }
        }
    }

    /// Deletes every recording the daemon made (in this run or an earlier one), the utterance
    /// under way and anything still waiting to be written included; returns what was deleted.
    func forget() throws(RecordingError) -> RecordingInventory {
        if let recorder { currentGeneration = recorder.forget() }
        details.removeAll()
        earlyTranscripts.removeAll()
        let deleted = try store.forgetAll()
        logger.notice("Forgot every recording", metadata: ["deleted": "\(deleted.names.count)", "directory": "\(store.directory)"])
        return deleted
    }

    /// What `status` says about recording: whether it is on, where, how many turns are kept.
    nonisolated var status: DaemonStatus.Recording {
        let kept = (try? store.inventory().turns.count) ?? 0
        return DaemonStatus.Recording(debugTurns: keptTurns, directory: store.directory, kept: kept)
    }

    private func write(_ utterance: UtteranceCapture.Finished) {
        let turn = RecordedTurn(run: run, turn: utterance.turn)
        var recorded = RecordedTurnDetails(
            turn: turn, startedAt: utterance.startedAt, audioStart: utterance.audioStart, audioEnd: utterance.audioEnd,
            truncated: utterance.truncated
        )
        recorded.transcript = earlyTranscripts[utterance.turn]
        // Turns before this one that were never written (dropped when the person went on) are over.
        earlyTranscripts = earlyTranscripts.filter { $0.key > utterance.turn }
        do {
            try store.prepareDirectory()
            try store.writeAudio(utterance.samples, count: utterance.samples.count, for: turn, bitrate: Self.bitrate)
            try store.writeDetails(recorded)
            details[utterance.turn] = recorded
            logger.debug("Recorded a turn", metadata: ["turn": "\(utterance.turn)", "seconds": "\(recorded.audioEnd - recorded.audioStart)"])
            removeSurplus(try store.inventory())
        } catch {
            logger.warning("Debug recording: \(error.message)")
        }
    }

    private func update(turn: Int, generation: Int, _ change: (inout RecordedTurnDetails) -> Void) {
        guard generation >= currentGeneration, var recorded = details[turn] else { return }
        change(&recorded)
        details[turn] = recorded
        do {
            try store.writeDetails(recorded)
        } catch {
            logger.warning("Debug recording: \(error.message)")
        }
    }

    private func removeSurplus(_ found: RecordingInventory) {
        let surplus = RecordingRetention(keeping: keptTurns).surplus(found.names)
        guard !surplus.isEmpty else { return }
        let outcome = store.delete(surplus)
        for name in surplus where name.turn.run == run { details[name.turn.turn] = nil }
        for failure in outcome.failures { logger.warning("Debug recording: cannot delete an old recording: \(failure)") }
    }
}

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
