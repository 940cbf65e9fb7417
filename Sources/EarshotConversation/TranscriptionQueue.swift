public import EarshotSpeech
import Synchronization

/// Hands each utterance to a transcriber, in order, and keeps its audio until the final
/// transcript is in: when the backend is unreachable the utterance waits and is sent again
/// (from its first chunk) with backoff, while later utterances queue behind it, up to
/// `capacity`; past that the oldest is dropped, with a report saying so.
///
/// `begin`, `append`, `end` and `discard` are called from the capture pipeline's thread: they
/// never wait. Reports arrive on `report` from the queue's own task.
public final class TranscriptionQueue: Sendable {
    public struct Configuration: Sendable {
        public var language: String
        /// Utterances waiting (the one being transcribed included) before the oldest is dropped.
        public var capacity: Int
        public var firstRetryDelay: Duration
        public var maximumRetryDelay: Duration

        public init(
            language: String = "en-US", capacity: Int = 8,
            firstRetryDelay: Duration = .milliseconds(500), maximumRetryDelay: Duration = .seconds(8)
        ) {
            self.language = language
            self.capacity = capacity
            self.firstRetryDelay = firstRetryDelay
            self.maximumRetryDelay = maximumRetryDelay
        }
    }

    enum Command: Sendable {
        case begin(turn: Int, audio: UtteranceAudio, language: String)
        case end(turn: Int)
        case discard(turn: Int)
    }

    public let transcriber: any Transcriber
    private let commands: AsyncStream<Command>.Continuation
    private let utterances = Mutex<[Int: UtteranceAudio]>([:])
    private let languageSetting: Mutex<String>
    private let worker: Task<Void, Never>

    public init(
        transcriber: any Transcriber, configuration: Configuration = .init(),
        report: @escaping @Sendable (TranscriptionReport) -> Void
    ) {
        self.transcriber = transcriber
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        commands = continuation
        languageSetting = Mutex(configuration.language)
        let backlog = TranscriptionBacklog(transcriber: transcriber, configuration: configuration, report: report)
        worker = Task { await backlog.run(stream) }
    }

    deinit {
        commands.finish()
        worker.cancel()
    }

    /// Starts `turn`'s utterance with its first audio (the prefix padding and what followed).
    public func begin(turn: Int, samples: [Int16]) {
        let audio = UtteranceAudio()
        audio.append(samples)
        utterances.withLock { $0[turn] = audio }
        commands.yield(.begin(turn: turn, audio: audio, language: language))
    }

    /// The language utterances begun from now on are transcribed in (BCP 47).
    public var language: String {
        get { languageSetting.withLock { $0 } }
        set { languageSetting.withLock { $0 = newValue } }
    }

    public func append(turn: Int, samples: [Int16]) {
        utterances.withLock { $0[turn] }?.append(samples)
    }

    public func end(turn: Int) {
        utterances.withLock { $0.removeValue(forKey: turn) }?.finish()
        commands.yield(.end(turn: turn))
    }

    /// Drops `turn`'s utterance; no report about it follows.
    public func discard(turn: Int) {
        // The audio is finished by the worker once the entry is gone, not here: a transcription
        // finishing on this end of the audio could otherwise still be reported.
        utterances.withLock { _ = $0.removeValue(forKey: turn) }
        commands.yield(.discard(turn: turn))
    }

    /// Stops transcribing; pending utterances are abandoned.
    public func close() {
        commands.finish()
        worker.cancel()
    }
}
