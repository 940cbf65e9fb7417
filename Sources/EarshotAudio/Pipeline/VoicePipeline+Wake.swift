public import EarshotTurns

extension VoicePipeline {
    /// What front ends render: the turn machine's snapshot, with the phrase voice mode waits for.
    public var snapshot: TurnSnapshot { withWake(machine.snapshot) }

    /// `snapshot` with the wake phrase while the gate waits for it (never while voice mode is off).
    func withWake(_ snapshot: TurnSnapshot) -> TurnSnapshot {
        var shown = snapshot
        if let wake, wake.isWaiting, snapshot.phase != .idle { shown.waitingFor = wake.configuration.phrase }
        return shown
    }

    /// Whether the person's speech goes to the phrase spotter instead of the turns: the gate
    /// waits and the turns rest (a reply started by a front end is still interrupted as usual).
    var waitsForWakePhrase: Bool {
        guard let wake, wake.isWaiting else { return false }
        return machine.snapshot.phase == .listening
    }

    /// How long the spotter goes on taking audio after the detector last heard speech: a pause
    /// inside the phrase ("hey … computer") keeps it one stretch.
    static var wakeAudioTailFrames: Int { 50 }

    /// The spotter heard the phrase in the audio that ends with frame `index` (the frame it was
    /// handed last when it decided). Ignored unless the gate is waiting. The conversation begins:
    /// a `wake` event at the end of that frame, the state without `waitingFor`, the wake cue;
    /// what the person says next is a turn, its audio starting after the phrase.
    public mutating func wakePhraseHeard(atFrame index: Int, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }) {
        guard waitsForWakePhrase, var gate = wake else { return }
        let action = gate.phraseHeard(at: Double(index + 1) * AudioFrame.duration)
        wake = gate
        guard case .wake(let phrase, let time) = action else { return }
        endWakeAudio(work: work)
        endpointer.reset()
        utteranceFloor = index + 1
        emit(.wake(phrase: phrase, time: time))
        emit(.state(snapshot, time: now))
        work(.wakeCue)
    }

    /// `talk`: a key asked for one turn. While the gate waits, the key stands in for the phrase:
    /// the conversation begins, and the next utterance is a turn, with its audio from now on.
    public mutating func talk(emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }) -> TurnAction {
        let before = snapshot
        if openWake(emit: emit, work: work) {
            endpointer.reset()
            utteranceFloor = lastFrameIndex + 1
        }
        let action = apply({ $0.talk() }, emit: emit, work: work)
        if case .transition = action { return action }
        if snapshot != before { emit(.state(snapshot, time: now)) }
        return action
    }

    /// Opens the gate without the phrase (a key, a reply said); true when it was waiting.
    mutating func openWake(emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void) -> Bool {
        guard var gate = wake, case .open = gate.open(at: now) else { return false }
        wake = gate
        endWakeAudio(work: work)
        return true
    }

    /// Takes a new wake phrase or idle time (nil: no wake phrase, every utterance is a turn).
    public mutating func reconfigureWake(_ configuration: WakeGate.Configuration?, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void = { _ in }) {
        let before = snapshot
        self.configuration.wake = configuration
        if let configuration, var gate = wake {
            gate.reconfigure(configuration)
            wake = gate
        } else {
            wake = configuration.map(WakeGate.init(configuration:))
        }
        if !waitsForWakePhrase { endWakeAudio(work: work) }
        if snapshot != before { emit(.state(snapshot, time: now)) }
    }

    /// The endpointer's boundaries while the gate waits: speech goes to the spotter, from its
    /// onset less the prefix padding, and no turn begins.
    mutating func handleWhileWaiting(_ boundary: Endpointer.Event, work: (SpeechWork) -> Void) {
        switch boundary {
        case .onsetSuspected(let onsetFrame):
            beginWakeAudio(from: onsetFrame - configuration.endpointer.prefixPaddingFrames, work: work)
        case .speechStarted(_, let audioStartFrame):
            beginWakeAudio(from: audioStartFrame, work: work)
        case .speechEnded:
            endWakeAudio(work: work)
        case .onsetRejected, .eagerEnd, .speechResumed:
            // A short burst may be the phrase's first word: the stretch ends after its tail.
            break
        }
    }

    /// Per frame: the spotter's stretch goes on or ends, and the gate hears of speech and turns.
    mutating func wakeFrame(_ frame: borrowing AudioFrame, speech: Bool, emit: (PipelineEvent) -> Void, work: (SpeechWork) -> Void) {
        if let began = wakeAudioBeganAt {
            framesSinceWakeSpeech = speech ? 0 : framesSinceWakeSpeech + 1
            if !waitsForWakePhrase || framesSinceWakeSpeech > Self.wakeAudioTailFrames {
                endWakeAudio(work: work)
            } else if began != frame.index {
                work(.wakeAudio(frame: copy frame))
            }
        }
        guard var gate = wake else { return }
        let phase = machine.snapshot.phase
        let action = gate.frame(speech: speech, turnsResting: phase == .listening || phase == .idle, at: now)
        wake = gate
        if case .sleep = action {
            endpointer.reset()
            emit(.state(snapshot, time: now))
        }
    }

    private mutating func beginWakeAudio(from start: Int, work: (SpeechWork) -> Void) {
        framesSinceWakeSpeech = 0
        guard wakeAudioBeganAt == nil else { return }
        wakeAudioBeganAt = lastFrameIndex
        work(.beginWakeAudio(audio: history.frames(from: max(start, utteranceFloor, 0))))
    }

    mutating func endWakeAudio(work: (SpeechWork) -> Void) {
        guard wakeAudioBeganAt != nil else { return }
        wakeAudioBeganAt = nil
        work(.endWakeAudio)
    }
}
