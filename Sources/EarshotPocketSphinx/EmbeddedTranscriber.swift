public import EarshotSpeech

/// Speech to text with pocketsphinx in this process: US English only, no network, modest accuracy.
///
/// The model loads at the first utterance (or at ``prepare()``) and stays loaded. Utterances are
/// decoded one at a time, in the order `transcribe` was called, on a queue of their own.
public final class EmbeddedTranscriber: Transcriber {
    public let name = "pocketsphinx (embedded)"
    private let worker: PocketSphinxWorker

    public init(model: PocketSphinxModel = .debianEnglish) {
        worker = PocketSphinxWorker(model: model)
    }

    /// Loads the model now, so the first utterance does not wait for it, and says whether it can.
    public func prepare() async throws(SpeechError) {
        try await worker.load()
    }

    /// Whether `language` (a BCP 47 tag) is one this backend transcribes.
    public static func supports(language: String) -> Bool {
        ["en", "en-us", "en_us"].contains(language.lowercased())
    }

    public func transcribe(
        _ audio: UtteranceAudio,
        language: String,
        partial: @escaping @Sendable (String) -> Void
    ) async throws -> String {
        guard Self.supports(language: language) else {
            throw SpeechError(
                .misconfigured,
                "\(name) transcribes US English only, not \"\(language)\": choose another speech-to-text backend"
            )
        }
        let feed = UtteranceFeed()
        // Not a child task: UtteranceAudio's iterator does not end when its task is cancelled, so
        // a cancelled utterance could not return before the capture finished it. Closing the feed
        // stops the pump at its next chunk instead.
        Task { await feed.pump(audio) }
        return try await worker.decode(feed, partial: partial)
    }
}
