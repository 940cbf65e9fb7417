import Dispatch
import Synchronization

/// A text-to-speech engine linked into the process, such as flite or espeak-ng: a C library
/// with process-global state that is not thread-safe. Its ``SynthesisEngineQueue`` is the only
/// caller, one text at a time on one thread, so an engine needs no locking of its own and holds
/// only what is particular to its library: loading and releasing it and its voices, applying
/// the settings, and handing its audio to the sink.
public protocol SynthesisEngine: AnyObject, SendableMetatype {
    /// What the engine takes from a ``Voice``: `Voice.Flite`, `Voice.Espeak`.
    associatedtype Settings: Sendable

    /// How messages and the queue name the engine: "flite", "espeak-ng".
    static var name: String { get }

    /// The voice's settings for this engine, if it has any.
    static func settings(of voice: Voice) -> Settings?

    /// Whether the engine holds anything that ``release()`` would free.
    var isLoaded: Bool { get }

    /// Loads what speaking with `settings` needs, unless it is loaded already.
    func load(for settings: Settings) throws(SpeechError)

    /// Speaks `text` into `sink` (without finishing it), returning early once `sink.yield`
    /// returns false: nobody listens any more. Called after ``load(for:)`` succeeded.
    func synthesize(_ text: String, settings: Settings, into sink: SpeechChunkSink) throws(SpeechError)

    /// Frees everything loaded; the next ``load(for:)`` loads it again.
    func release()
}

/// The shell around a ``SynthesisEngine``: the one owner of the engine in the process (keep it
/// in a `static let`), which calls it only on a serial queue of its own, one text at a time in
/// the order asked for, and streams its audio through a ``SpeechChunkSink``. The engine loads
/// at the first text and is released once idle for the delay the latest text asked for.
///
/// Ending iteration early stops the synthesis within a chunk; a text whose listener has gone
/// before its turn comes is not spoken at all.
public final class SynthesisEngineQueue<Engine: SynthesisEngine>: @unchecked Sendable {
    // @unchecked: `engine`, and through it the C library, is touched only on `queue`.
    private let engine: Engine
    private let queue: DispatchQueue
    private let idleTimer: IdleReleaseTimer
    /// Mirrors `engine.isLoaded` for readers off the queue.
    private let loaded = Atomic(false)

    /// Takes over `engine`: nothing else may call it from now on.
    public init(_ engine: Engine) {
        self.engine = engine
        queue = DispatchQueue(label: "earshot.\(Engine.name)", qos: .userInitiated)
        idleTimer = IdleReleaseTimer(queue: queue)
    }

    /// Whether the engine holds its library's state or voices now.
    public var isLoaded: Bool { loaded.load(ordering: .acquiring) }

    /// Speaks in `voice`'s settings for the engine; a voice without them fails with `.misconfigured`.
    public func synthesize(_ text: String, voice: Voice, unload: IdleUnload) -> AsyncThrowingStream<SpeechChunk, any Error> {
        guard let settings = Engine.settings(of: voice) else {
            return AsyncThrowingStream {
                throw SpeechError(.misconfigured, "the voice \"\(voice.displayName)\" has no \(Engine.name) settings")
            }
        }
        return synthesize(text, settings: settings, unload: unload)
    }

    /// Speaks `text` after the texts queued before it; the stream finishes when the engine is
    /// done, or with the error it threw. The engine is released after `unload`'s delay unless
    /// another text comes first.
    public func synthesize(
        _ text: String, settings: Engine.Settings, unload: IdleUnload
    ) -> AsyncThrowingStream<SpeechChunk, any Error> {
        let (stream, sink) = SpeechChunkSink.makeStream()
        queue.async {
            self.idleTimer.cancel()
            defer { self.scheduleRelease(unload) }
            do throws(SpeechError) {
                if !sink.isStopped {
                    try self.load(for: settings, unload: unload)
                    try self.engine.synthesize(text, settings: settings, into: sink)
                }
                sink.finish()
            } catch {
                sink.finish(throwing: error)
            }
        }
        return stream
    }

    private func load(for settings: Engine.Settings, unload: IdleUnload) throws(SpeechError) {
        let wasLoaded = engine.isLoaded
        let start = ContinuousClock.now
        defer { loaded.store(engine.isLoaded, ordering: .releasing) }
        try engine.load(for: settings)
        if !wasLoaded, engine.isLoaded { unload.report(.loaded(what: Engine.name, duration: ContinuousClock.now - start)) }
    }

    private func scheduleRelease(_ unload: IdleUnload) {
        idleTimer.schedule(unload) {
            guard self.engine.isLoaded else { return nil }
            self.engine.release()
            self.loaded.store(false, ordering: .releasing)
            return Engine.name
        }
    }
}

/// Where an engine's audio goes: the continuation of the stream a caller iterates, plus the flag
/// that tells the engine to stop once nobody listens any more. Used by ``SynthesisEngineQueue``.
public final class SpeechChunkSink: Sendable {
    private let continuation: AsyncThrowingStream<SpeechChunk, any Error>.Continuation
    private let stopped: StopFlag

    /// A stream and the sink that feeds it; ending iteration early stops the sink.
    static func makeStream() -> (AsyncThrowingStream<SpeechChunk, any Error>, SpeechChunkSink) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SpeechChunk.self)
        // The stream holds the flag, not a weak reference to the sink: a weak reference gives
        // the sink a side table that Swift addresses only in encoded form, so a process leaving
        // mid-synthesis looked to LeakSanitizer as if it had lost that table.
        let stopped = StopFlag()
        continuation.onTermination = { [stopped] _ in stopped.raise() }
        return (stream, SpeechChunkSink(continuation: continuation, stopped: stopped))
    }

    private init(continuation: AsyncThrowingStream<SpeechChunk, any Error>.Continuation, stopped: StopFlag) {
        self.continuation = continuation
        self.stopped = stopped
    }

    /// Set once nobody listens any more: the engine should stop.
    public var isStopped: Bool { stopped.isRaised }

    func stop() { stopped.raise() }

    /// Passes on a copy of `samples`; false once the consumer has gone and synthesis should stop.
    public func yield(_ samples: UnsafeBufferPointer<Int16>, sampleRate: Int) -> Bool {
        guard !isStopped else { return false }
        guard !samples.isEmpty else { return true }
        if case .terminated = continuation.yield(SpeechChunk(sampleRate: sampleRate, samples: Array(samples))) {
            stop()
            return false
        }
        return true
    }

    func finish(throwing error: (any Error)? = nil) {
        continuation.finish(throwing: error)
    }
}

/// Once raised, stays raised; readable from any thread.
private final class StopFlag: Sendable {
    private let raised = Atomic(false)

    var isRaised: Bool { raised.load(ordering: .relaxed) }

    func raise() { raised.store(true, ordering: .relaxed) }
}
