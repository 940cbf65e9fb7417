public import EarshotAudio
import EarshotProtocol
public import EarshotSpeech
import EarshotTurns

/// Replays a recording as one side of a conversation whose other side, the assistant's, comes
/// from a ``ConversationScript``: when the pipeline asks for a reply, the script gives it; it is
/// synthesized (audio time stands still meanwhile) and played in audio time, the next 10 ms of
/// the speaker with each microphone frame, so the echo gate and the speaker's levels work as
/// they do live, and pauses, resumptions and stops follow the pipeline's ``SpeechWork``. What
/// the speaker does is logged as `speaker` events among the pipeline's.
///
/// With a transcriber, it runs in lockstep as in ``ReplayTranscription``. Without one, the end
/// of an utterance stands for its transcript: the reply to that turn is asked for at once.
/// The replay runs on in silence past the end of the recording while the assistant has more
/// to say (up to ``runOnFrames``), so the log ends with the conversation.
///
/// The pipeline must be configured with `transcribes` on: it hands out utterances either way.
public struct ScriptedReplay<Detector: VoiceActivityDetector> {
    private var replay: Replay<Detector>
    private var transcription: LockstepTranscription?
    private let synthesizer: any Synthesizer
    private var schedule: ReplySchedule
    private var speaker = ScriptedSpeaker()
    private var echo: EchoPath?
    private var frameIndex = -1
    /// The scripted reply whose request is being applied: its voice and turn are the reply's.
    private var starting: ScriptedReply?

    /// The most the replay runs on past the end of the recording (30 s).
    public static var runOnFrames: Int { 3000 }

    /// What a turn's transcript is taken to be without a transcriber (never shown).
    static var untranscribed: String { "(not transcribed)" }

    public init(
        replay: Replay<Detector>, script: ConversationScript, synthesizer: any Synthesizer,
        transcriber: (any Transcriber)?, language: String = "en-US"
    ) {
        precondition(replay.pipeline.configuration.transcribes, "a scripted replay needs the pipeline to hand out utterances")
        self.replay = replay
        self.synthesizer = synthesizer
        self.transcription = transcriber.map { LockstepTranscription(transcriber: $0, language: language) }
        self.schedule = ReplySchedule(script.replies)
        if script.echoGain > 0 { echo = EchoPath(gain: script.echoGain, delayMilliseconds: script.echoDelayMilliseconds) }
    }

    /// Replays `clip`, then silence while the conversation is under way; with `realtime`, one
    /// frame every 10 ms like a live microphone.
    public mutating func run(_ clip: AudioClip, realtime: Bool = false, write: ([UInt8]) -> Void) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        var next = 0
        for frame in clip.frames {
            if realtime { try await clock.sleep(until: start.advanced(by: .milliseconds(10 * (frame.index + 1)))) }
            await step(frame)
            flush(to: write)
            next = frame.index + 1
        }
        let end = next + Self.runOnFrames
        while isUnderWay, next < end {
            if realtime { try await clock.sleep(until: start.advanced(by: .milliseconds(10 * (next + 1)))) }
            await step(.silence(index: next))
            flush(to: write)
            next += 1
        }
        var work: [SpeechWork] = []
        replay.end { work.append($0) }
        await perform(work)
        flush(to: write)
    }

    /// The person's turn is open, a reply is due or still to come, or the speaker is playing.
    private var isUnderWay: Bool {
        let phase = replay.pipeline.machine.snapshot.phase
        return speaker.isPlaying || schedule.hasPending || phase == .hearing || phase == .thinking
    }

    /// One microphone frame (with the speaker's echo mixed in, if the script asks), then the
    /// speaker's 10 ms alongside it, then a reply that is due.
    private mutating func step(_ frame: AudioFrame) async {
        frameIndex = frame.index
        var work: [SpeechWork] = []
        replay.feed(echo?.mix(into: frame) ?? frame) { work.append($0) }
        await perform(work)
        if let step = await transcription?.inStep() { replay.reportPartials(step.partials, turn: step.turn) }
        let played = speaker.nextFrame(index: frame.index)
        echo?.record(played)
        if let played {
            var events: [PipelineEvent] = []
            replay.pipeline.played(played) { events.append($0) }
            emit(events)
        }
        if let ended = speaker.endIfDone(at: replay.pipeline.now) {
            emit(ended)
            await apply { $0.playbackFinished(reply: ended.reply) }
        }
        await sayDueReply()
    }

    private mutating func sayDueReply() async {
        let listening = replay.pipeline.machine.snapshot.phase == .listening
        guard let reply = schedule.takeDue(afterFrame: frameIndex, listening: listening) else { return }
        starting = reply
        defer { starting = nil }
        await apply { $0.replyRequested(turn: reply.turn, text: reply.text) }
    }

    /// Applies an input to the turn machine and carries out the work that follows.
    private mutating func apply(_ input: (inout TurnMachine<StreamClock>) -> TurnAction) async {
        var work: [SpeechWork] = []
        replay.apply(input) { work.append($0) }
        await perform(work)
    }

    private mutating func perform(_ work: [SpeechWork]) async {
        for item in work { await perform(item) }
    }

    private mutating func perform(_ work: SpeechWork) async {
        let now = replay.pipeline.now
        switch work {
        case .beginUtterance(let turn, let frames):
            transcription?.begin(turn: turn, audio: frames)
        case .utteranceAudio(let turn, let frame):
            transcription?.append(turn: turn, frame: frame)
        case .effect(.endUtterance(let turn)):
            guard transcription != nil else {
                await apply { $0.finalTranscript(turn: turn, text: Self.untranscribed) }
                return
            }
            guard let outcome = await transcription?.end(turn: turn) else { return }
            var next: [SpeechWork] = []
            replay.report(outcome, turn: turn) { next.append($0) }
            await perform(next)
        case .effect(.discardUtterance(let turn)):
            transcription?.discard(turn: turn)
        case .effect(.requestReply(let turn, _)):
            // A scripted answer is said once its delay has passed; without one, it is declined.
            if !schedule.ask(turn: turn, afterFrame: frameIndex) {
                await apply { $0.replyRequested(turn: turn, text: "") }
            }
        case .effect(.discardReply(let turn)):
            schedule.discard(turn: turn)
        case .effect(.synthesize(let reply, let text, _, _)):
            await speak(reply: reply, text: text)
        case .effect(.pausePlayback(let reply)):
            emit(speaker.pause(reply: reply, at: now))
        case .effect(.resumePlayback(let reply)):
            emit(speaker.resume(reply: reply, at: now))
        case .effect(.stopPlayback(let reply)):
            emit(speaker.stop(reply: reply, at: now))
        case .effect, .beginWakeAudio, .wakeAudio, .endWakeAudio, .wakeCue, .utterancePaused:
            // The recording is the microphone, and a script neither mutes, previews nor waits for a wake phrase.
            break
        }
    }

    /// Synthesizes `reply` and starts playing it; a failure is reported and ends the reply.
    private mutating func speak(reply: Int, text: String) async {
        guard let scripted = starting else {
            await apply { $0.playbackFinished(reply: reply) }
            return
        }
        let samples: [Float]
        do {
            samples = try await synthesize(text, voice: scripted.voice)
        } catch {
            let message = (error as? SynthesisError)?.message ?? "Speech synthesis failed: \(error)"
            replay.reportError(.speechFailed, message: message)
            await apply { $0.playbackFinished(reply: reply) }
            return
        }
        guard !samples.isEmpty else {
            await apply { $0.playbackFinished(reply: reply) }
            return
        }
        emit(speaker.start(
            reply: reply, turn: scripted.turn, voice: scripted.voice.id, text: text, samples: samples, at: replay.pipeline.now
        ))
        await apply { $0.playbackStarted(reply: reply) }
    }

    /// The reply's audio at 16 kHz, sentence by sentence as the live player makes it.
    private func synthesize(_ text: String, voice: Voice) async throws -> [Float] {
        var samples: [Float] = []
        for sentence in SentenceSplitter.split(text) {
            for try await chunk in synthesizer.synthesize(sentence, voice: voice) {
                samples += Resampler.resample(
                    chunk.samples.map { Float($0) / 32768 }, from: chunk.sampleRate, to: AudioFrame.sampleRate
                )
            }
        }
        return samples
    }

    /// Logs what the speaker did after the pipeline's events so far.
    private mutating func emit(_ event: SpeakerEvent?) {
        guard let event else { return }
        replay.write(.speaker(event))
    }

    private mutating func emit(_ events: [PipelineEvent]) {
        for event in events { replay.write(SocketEvent(event)) }
    }

    private mutating func flush(to write: ([UInt8]) -> Void) {
        replay.flush(to: write)
    }
}

/// When each scripted reply is due: an answer once the pipeline asks for the reply to its turn
/// and its delay has passed; an unprompted reply once its time has come and the voice UI is
/// `listening` (it waits out a turn in progress, as a front end would).
struct ReplySchedule {
    /// Answers by the turn they answer, not yet asked for.
    private var answers: [Int: ScriptedReply] = [:]
    /// Unprompted replies not yet said, by time (file order among equal times).
    private var unprompted: [(reply: ScriptedReply, frame: Int)] = []
    /// Answers asked for, with the frame after which each is given.
    private var asked: [(reply: ScriptedReply, frame: Int)] = []

    init(_ replies: [ScriptedReply]) {
        for reply in replies {
            switch reply.cue {
            case .afterTurn(let turn, _):
                answers[turn] = reply
            case .at(let seconds):
                // Said after the frame that ends at `seconds` (rounded to the 10 ms grid).
                unprompted.append((reply, max(0, Int((seconds / AudioFrame.duration).rounded()) - 1)))
            }
        }
        unprompted = unprompted.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }

    /// The pipeline asks for the reply to `turn` after frame `frame`; false when the script has none.
    mutating func ask(turn: Int, afterFrame frame: Int) -> Bool {
        guard let reply = answers.removeValue(forKey: turn) else { return false }
        var delayFrames = 0
        if case .afterTurn(_, let milliseconds) = reply.cue {
            delayFrames = Int((Double(milliseconds) / (AudioFrame.duration * 1000)).rounded(.up))
        }
        asked.append((reply, frame + delayFrames))
        return true
    }

    /// The turn moved on before its answer was given: it is never said.
    mutating func discard(turn: Int) {
        asked.removeAll { $0.reply.turn == turn }
    }

    /// The reply to say after frame `frame`, if one is due.
    mutating func takeDue(afterFrame frame: Int, listening: Bool) -> ScriptedReply? {
        if let index = asked.firstIndex(where: { $0.frame <= frame }) { return asked.remove(at: index).reply }
        if listening, let first = unprompted.first, first.frame <= frame { return unprompted.removeFirst().reply }
        return nil
    }

    /// Replies asked for or still to come unprompted.
    var hasPending: Bool { !asked.isEmpty || !unprompted.isEmpty }
}
