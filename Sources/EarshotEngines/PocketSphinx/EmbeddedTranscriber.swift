import Dispatch
import EarshotBase
public import EarshotSpeech
import Synchronization

/// Speech to text with pocketsphinx in this process: US English only, no network, modest accuracy.
///
/// The model (about 65 MB) loads when the first utterance begins (or at ``prepare()``), while the
/// person is still speaking, and is released after `unload`'s delay without an utterance.
/// Utterances are decoded one at a time, in the order `transcribe` was called, on a queue of
/// their own. A snapshot of an utterance still going on (``UtteranceAudio/snapshot()``) is
/// decoded by a second decoder, loaded when the first comes, that starts from the cepstral mean
/// the first had when that utterance began: the utterance itself is decoded exactly as without it.
///
/// At a pause of an utterance being decoded (an eager end), the running decode ends there and
/// its transcript is at hand once the decoder has caught up (``transcribeToPause(_:language:)``);
/// only if the person goes on is the utterance decoded again, whole, from its start.
public final class EmbeddedTranscriber: Transcriber {
    public let name = "pocketsphinx (embedded)"
    public let decodesSnapshotsAlongside = true
    private let worker: PocketSphinxWorker
    private let snapshotWorker: PocketSphinxWorker

    private let model: PocketSphinxModel
    /// The feeds of the utterances handed to `worker`, by their audio.
    private let feeds = Locked<[ObjectIdentifier: UtteranceFeed]>([:])

    public init(model: PocketSphinxModel = .usEnglish, unload: IdleUnload = .never) {
        self.model = model
        worker = PocketSphinxWorker(model: model, unload: unload)
        snapshotWorker = PocketSphinxWorker(model: model, unload: unload)
    }

    /// Says whether the model's files are there, without loading them.
    public func checkModel() throws(SpeechError) {
        do {
            try model.checkFiles()
        } catch {
            throw SpeechError(.misconfigured, error.description)
        }
    }

    /// Loads the model now, so the next utterance does not wait for it, and says whether it can.
    public func prepare() async throws(SpeechError) {
        try await worker.load()
    }

    /// Whether the model is in memory now.
    public var isLoaded: Bool { worker.isLoaded }

    /// The cepstral mean the next utterance is normalised with, as pocketsphinx writes it
    /// ("c0,c1,…"), learnt from the utterances transcribed so far, across releases of the model;
    /// nil before the first utterance (pocketsphinx's initial guess).
    public func learntCepstralMean() async -> String? {
        await worker.learntCepstralMean()
    }

    /// Whether `language` (a BCP 47 tag) is one this backend transcribes.
    public static func supports(language: String) -> Bool {
        ["en", "en-us", "en_us"].contains(language.lowercased())
    }

    public func transcribe(
        _ audio: UtteranceAudio,
        language: String,
        partial: @escaping @Sendable (PartialTranscript) -> Void
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
        if audio.isSnapshot {
            return try await snapshotWorker.decode(feed, startingFrom: worker.latestStartingMean, partial: partial)
        }
        let key = ObjectIdentifier(audio)
        feeds.withLock { $0[key] = feed }
        defer { feeds.withLock { if $0[key] === feed { $0[key] = nil } } }
        return try await worker.decode(feed, partial: partial)
    }

    /// Ends the running decode of `audio` at its pause, or, for an utterance not being decoded
    /// (one waiting behind another), decodes a snapshot of it on the second decoder.
    public func transcribeToPause(_ audio: UtteranceAudio, language: String) async throws -> String {
        guard let pause = audio.pause else { throw CancellationError() }
        if let feed = feeds.withLock({ $0[ObjectIdentifier(audio)] }) {
            return try await feed.transcript(atPause: pause)
        }
        return try await transcribe(audio.snapshot(), language: language) { _ in }
    }
}

/// Keeps one decoder on a serial queue of its own, loads it when first needed, decodes one
/// utterance at a time there, and frees it once idle, so neither the model load nor decoding
/// holds a thread of Swift's cooperative pool.
final class PocketSphinxWorker: @unchecked Sendable {
    // @unchecked: `decoder` is read and written only on `queue` (`idleTimer` belongs to it).
    private let queue = DispatchQueue(label: "earshot.pocketsphinx", qos: .userInitiated)
    private let model: PocketSphinxModel
    private let unload: IdleUnload
    private let idleTimer: IdleReleaseTimer
    private var decoder: PocketSphinxDecoder?
    /// The cepstral mean the released decoder had learnt, handed to the next one: the first
    /// utterance after a release is heard with the mean of the voices heard before it, as if
    /// the decoder had stayed, not with pocketsphinx's initial guess.
    private var releasedDecodersCepstralMean: String?
    /// Mirrors `decoder != nil` for readers off the queue.
    private let loaded = Atomic(false)
    /// The cepstral mean the latest utterance began with, once one was learnt.
    private let startingMean = Locked<String?>(nil)

    init(model: PocketSphinxModel, unload: IdleUnload) {
        self.model = model
        self.unload = unload
        idleTimer = IdleReleaseTimer(queue: queue)
    }

    var isLoaded: Bool { loaded.load(ordering: .acquiring) }

    /// Loads the model unless it is loaded already.
    func load() async throws(SpeechError) {
        let result: Result<Void, SpeechError> = await withCheckedContinuation { continuation in
            queue.async {
                self.idleTimer.cancel()
                defer { self.scheduleRelease() }
                continuation.resume(returning: Result { () throws(SpeechError) in _ = try self.loadedDecoder() })
            }
        }
        try result.get()
    }

    func learntCepstralMean() async -> String? {
        await withCheckedContinuation { continuation in
            queue.async {
                if let decoder = self.decoder {
                    continuation.resume(returning: decoder.hasLearntCepstralMean ? decoder.cepstralMean : nil)
                } else {
                    continuation.resume(returning: self.releasedDecodersCepstralMean)
                }
            }
        }
    }

    /// The cepstral mean the latest utterance began with, once one was learnt.
    var latestStartingMean: String? { startingMean.withLock { $0 } }

    /// Decodes the utterance `feed` delivers, once the utterances queued before it are done.
    /// Cancelling the calling task abandons it and returns at once, even while it waits its turn.
    /// `mean`, when given, is where the decoder's cepstral mean starts from.
    func decode(
        _ feed: UtteranceFeed, startingFrom mean: String? = nil, partial: @escaping @Sendable (PartialTranscript) -> Void
    ) async throws -> String {
        let outcome = PendingResult<String>()
        queue.async { outcome.settle(Result { try self.run(feed, startingFrom: mean, partial: partial) }) }
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
            let start = ContinuousClock.now
            let made = try PocketSphinxDecoder(model: model)
            // A mean the new decoder refused leaves it at pocketsphinx's initial guess, as at the first load.
            if let releasedDecodersCepstralMean { try? made.restoreCepstralMean(releasedDecodersCepstralMean) }
            decoder = made
            loaded.store(true, ordering: .releasing)
            unload.report(.loaded(what: "pocketsphinx model", duration: ContinuousClock.now - start))
            return made
        } catch {
            throw SpeechError(.misconfigured, error.description)
        }
    }

    private func scheduleRelease() {
        idleTimer.schedule(unload) {
            // On the queue, between utterances: nothing else holds the decoder, so this frees it.
            guard let decoder = self.decoder else { return nil }
            if decoder.hasLearntCepstralMean { self.releasedDecodersCepstralMean = decoder.cepstralMean }
            self.decoder = nil
            self.loaded.store(false, ordering: .releasing)
            return "pocketsphinx model"
        }
    }

    private func run(_ feed: UtteranceFeed, startingFrom mean: String?, partial: @Sendable (PartialTranscript) -> Void) throws -> String {
        // However it ends, the reader stops waiting for this utterance, and the idle time starts.
        defer {
            feed.close()
            scheduleRelease()
        }
        idleTimer.cancel()
        if feed.isClosed { throw CancellationError() }
        let decoder = try loadedDecoder()
        if let mean { try? decoder.restoreCepstralMean(mean) }
        if decoder.hasLearntCepstralMean {
            let mean = decoder.cepstralMean
            startingMean.withLock { $0 = mean }
        }
        // Where the decode starts from, to start it again there if the person goes on after a
        // pause it ended at; and the audio so far, to decode it again.
        let startingCepstralMean = decoder.cepstralMean, meanWasLearnt = decoder.hasLearntCepstralMean
        var heard: [Int16] = []
        do {
            try decoder.beginUtterance()
            var latest: PartialTranscript?
            // The transcript at the pause the decode ended at, while the person has not gone on.
            var atPause: String?
            func reportProgress() {
                // The hypothesis again, changed or not: how far the words reach.
                guard var update = latest, !feed.isClosed else { return }
                update.coveredSamples = heard.count
                update.wordsEndSamples = decoder.wordsEndFrame.map { $0 * PocketSphinxDecoder.samplesPerFrame }
                partial(update)
            }
            func hear(_ samples: [Int16]) throws {
                if let hypothesis = try decoder.process(samples) {
                    latest = PartialTranscript(text: hypothesis, sentenceEnd: decoder.sentenceEnd(after: hypothesis))
                }
            }
            while true {
                switch feed.next() {
                case .samples(let samples):
                    heard.append(contentsOf: samples)
                    // Ended at a pause: the audio after it is kept, and decoded only if the person goes on.
                    guard atPause == nil else { continue }
                    try hear(samples)
                    reportProgress()
                case .pause(let pause):
                    let text = try decoder.endUtterance()
                    atPause = text
                    // The words decoded to their end are the latest hypothesis too: the end of
                    // the turn is judged by them, the sentence's end weighed as for any other.
                    if !text.isEmpty {
                        latest = PartialTranscript(text: text, sentenceEnd: decoder.sentenceEnd(after: text))
                        reportProgress()
                    }
                    feed.transcribed(text, atPause: pause)
                case .resume:
                    atPause = nil
                    try? decoder.restoreCepstralMean(startingCepstralMean, learnt: meanWasLearnt)
                    try decoder.beginUtterance()
                    latest = nil
                    try hear(heard)
                    reportProgress()
                case .ended:
                    let text = try atPause ?? decoder.endUtterance()
                    feed.transcribed(text, atPause: nil)
                    return text
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

/// A result awaited by one task and settled once, by whichever comes first: the work itself or
/// the waiting task's cancellation. Later settlements are ignored.
final class PendingResult<Value: Sendable>: Sendable {
    private enum State {
        case unsettled
        case waiting(CheckedContinuation<Value, any Error>)
        case settled(Result<Value, any Error>)
        case delivered
    }

    private let state = Locked(State.unsettled)

    func settle(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .unsettled:
                state = .settled(result)
                return nil
            case .waiting(let continuation):
                state = .delivered
                return continuation
            case .settled, .delivered:
                return nil
            }
        }
        waiter?.resume(with: result)
    }

    /// Waits for the result; call once.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                guard case .settled(let result) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .delivered
                return result
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
