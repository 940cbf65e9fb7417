import EarshotSpeech
import Foundation

/// Keeps one decoder on a serial queue of its own, loads it when first needed, and decodes one
/// utterance at a time there, so neither the model load nor decoding holds a thread of Swift's
/// cooperative pool.
final class PocketSphinxWorker: @unchecked Sendable {
    // @unchecked: `decoder` is read and written only on `queue`.
    private let queue = DispatchQueue(label: "earshot.pocketsphinx", qos: .userInitiated)
    private let model: PocketSphinxModel
    private var decoder: PocketSphinxDecoder?

    init(model: PocketSphinxModel) {
        self.model = model
    }

    /// Loads the model unless it is loaded already.
    func load() async throws(SpeechError) {
        let result: Result<Void, SpeechError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(SpeechError) in _ = try self.loadedDecoder() })
            }
        }
        try result.get()
    }

    /// Decodes the utterance `feed` delivers, once the utterances queued before it are done.
    /// Cancelling the calling task abandons it and returns at once, even while it waits its turn.
    func decode(_ feed: UtteranceFeed, partial: @escaping @Sendable (String) -> Void) async throws -> String {
        let outcome = PendingResult<String>()
        queue.async { outcome.settle(Result { try self.run(feed, partial: partial) }) }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            feed.close()
            outcome.settle(.failure(CancellationError()))
        }
    }

    private func loadedDecoder() throws(SpeechError) -> PocketSphinxDecoder {
        dispatchPrecondition(condition: .onQueue(queue))
        if let decoder { return decoder }
        do {
            let loaded = try PocketSphinxDecoder(model: model)
            decoder = loaded
            return loaded
        } catch {
            throw SpeechError(.misconfigured, error.description)
        }
    }

    private func run(_ feed: UtteranceFeed, partial: @Sendable (String) -> Void) throws -> String {
        // However it ends, the reader stops waiting for this utterance.
        defer { feed.close() }
        if feed.isClosed { throw CancellationError() }
        let decoder = try loadedDecoder()
        do {
            try decoder.beginUtterance()
            while true {
                switch feed.next() {
                case .samples(let samples):
                    if let hypothesis = try decoder.process(samples), !feed.isClosed { partial(hypothesis) }
                case .ended:
                    return try decoder.endUtterance()
                case .cancelled:
                    decoder.abandonUtterance()
                    throw CancellationError()
                }
            }
        } catch let error as PocketSphinxError {
            decoder.abandonUtterance()
            throw SpeechError(.rejected, error.description)
        }
    }
}
