import EarshotAudio
import EarshotBase
import EarshotConversation
import EarshotProtocol
import EarshotPulse
import EarshotRecordings
import EarshotServer
import EarshotSpeech
import EarshotTurns

/// Answers front ends' commands: turn inputs go to the session, device commands to the engine.
struct DaemonCommandHandler: CommandHandler {
    let session: VoiceSession
    let engine: PulseAudioEngine
    let relay: EventRelay
    /// The settings in force, for `status`; nil when the daemon was configured in code.
    var settings: DaemonSettings? = nil
    /// The debug recordings on disk, for `status` and `forget`.
    let recordings: RecordingArchive

    func handle(_ command: Command) async -> CommandResult {
        switch command {
        case .status: status()
        case .start: turn { $0.start() }
        case .dismiss: dismiss()
        case .stop: turn { $0.stop() }
        case .cancel: turn { $0.cancel() }
        case .mute: turn { $0.mute() }
        case .unmute: turn { $0.unmute() }
        case .hold: turn { $0.hold() }
        case .release: turn { $0.release() }
        case .talk:
            switch session.talk() {
            case .success(let snapshot): .answer(StateAnswer(state: VoiceState(snapshot)))
            case .failure(let error): .failure(error)
            }
        case .toggle: toggle()
        case .devices: await devices()
        case .setSource(let name): await route(.source, to: name) { () async throws(PulseError) in try await engine.setSource(name) }
        case .setSink(let name): await route(.sink, to: name) { () async throws(PulseError) in try await engine.setSink(name) }
        case .speak(let text, let voiceName, let turn):
            speak(text, voiceName: voiceName, turn: turn)
        case .voices:
            .answer(VoiceListAnswer(session.voices, current: session.currentVoice))
        case .setVoice(let name):
            setVoice(name)
        case .preview(let name):
            preview(name)
        case .forget(let confirm):
            await forget(confirm: confirm)
        case .subscribe, .unsubscribe, .claim, .unclaim:
            // The server answers these itself; reaching here is a wiring mistake, said plainly.
            .failure(ProtocolError(code: .internalError, message: "\(command.name) is handled by the socket server."))
        }
    }

    /// `dismiss`: the conversation is over, so the assistant forgets it too.
    private func dismiss() -> CommandResult {
        session.responder?.forgetConversation()
        return turn { $0.dismiss() }
    }

    /// `toggle`: turning voice mode off is a `dismiss`, so the assistant forgets then too.
    private func toggle() -> CommandResult {
        let result = turn { $0.toggle() }
        if session.snapshot.phase == .idle { session.responder?.forgetConversation() }
        return result
    }

    private func turn(_ input: @Sendable (inout TurnMachine<StreamClock>) -> TurnAction) -> CommandResult {
        switch session.apply(input) {
        case .success(let snapshot): .answer(StateAnswer(state: VoiceState(snapshot)))
        case .failure(let error): .failure(error)
        }
    }

    private func speak(_ text: String, voiceName: String?, turn: Int?) -> CommandResult {
        var voice: Voice?
        if let voiceName {
            switch session.voice(named: voiceName) {
            case .success(let found): voice = found
            case .failure(let error): return .failure(error)
            }
        }
        switch session.speak(text, voice: voice, turn: turn) {
        case .success(let snapshot): return .answer(StateAnswer(state: VoiceState(snapshot)))
        case .failure(let error): return .failure(error)
        }
    }

    private func setVoice(_ name: String) -> CommandResult {
        switch session.voice(named: name) {
        case .success(let voice):
            session.currentVoice = voice
            return .answer(VoiceAnswer(voice: voice.id))
        case .failure(let error):
            return .failure(error)
        }
    }

    private func preview(_ name: String?) -> CommandResult {
        let found = name.map { session.voice(named: $0) } ?? .success(session.currentVoice)
        switch found.flatMap({ voice in session.preview(voice).map { (voice, $0) } }) {
        case .success(let (voice, snapshot)): return .answer(PreviewAnswer(voice: voice.id, state: VoiceState(snapshot)))
        case .failure(let error): return .failure(error)
        }
    }

    private static func describe(_ echoCancellation: PulseEchoCancellation) -> String {
        switch echoCancellation {
        case .off: "off"
        case .active(_, let source, let sink): "active on \(source) and \(sink)"
        case .unavailable(let error): "unavailable: \(error.message)"
        }
    }

    private func status() -> CommandResult {
        let audio = engine.status
        let counters = engine.counters
        let socket = relay.counters
        let uptime = ContinuousClock.now - session.startedAt
        let status = DaemonStatus(
            protocolVersion: DaemonStatus.currentProtocolVersion,
            state: VoiceState(session.snapshot),
            audio: DaemonStatus.Audio(
                connected: audio.isConnected, server: audio.server,
                source: audio.source.map(DaemonStatus.Audio.Device.named) ?? .unknown,
                sink: audio.sink.map(DaemonStatus.Audio.Device.named) ?? .unknown,
                audioTime: session.audioTime, echoCancellation: Self.describe(audio.echoCancellation)
            ),
            backends: [
                DaemonStatus.Backend(role: "vad", name: "spectral"),
                DaemonStatus.Backend(role: "transcription", name: session.transcription?.transcriber.name ?? "none"),
                DaemonStatus.Backend(role: "speech", name: session.player?.name ?? "none"),
                DaemonStatus.Backend(role: "voice", name: session.currentVoice.id),
                DaemonStatus.Backend(role: "replies", name: session.responder?.name ?? "front ends"),
            ],
            uptime: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) * 1e-18,
            counters: [
                DaemonStatus.Counter(name: "frames", value: counters.framesCaptured),
                DaemonStatus.Counter(name: "holes", value: counters.holeFrames),
                DaemonStatus.Counter(name: "overflows", value: counters.overflowFrames),
                DaemonStatus.Counter(
                    name: "longest_fragment_gap_ms",
                    value: Int(counters.longestFragmentGap / .milliseconds(1))
                ),
                DaemonStatus.Counter(name: "reconnects", value: counters.reconnects),
                DaemonStatus.Counter(name: "clients", value: socket?.clients ?? 0),
                DaemonStatus.Counter(name: "dropped_levels", value: socket?.droppedLevels ?? 0),
                DaemonStatus.Counter(name: "disconnected_slow_clients", value: socket?.disconnectedSlowClients ?? 0),
            ],
            // VoiceSession hands its errors over as status's JSON; read back, they are the protocol's type.
            errors: session.recentErrors,
            configFile: settings?.path,
            settings: settings?.inForceForStatus,
            recording: recordings.status
        )
        return .answer(status)
    }

    private func devices() async -> CommandResult {
        do {
            let list = try await engine.devices()
            let status = engine.status
            return .answer(DeviceListAnswer(list, source: status.source, sink: status.sink))
        } catch {
            return .failure(Self.protocolError(error, device: nil))
        }
    }

    private func route(_ direction: RouteAnswer.Direction, to name: String?, _ change: () async throws(PulseError) -> String) async -> CommandResult {
        do {
            let inUse = try await change()
            return .answer(RouteAnswer(direction: direction, inUse: inUse, followsDefault: name == nil))
        } catch {
            return .failure(Self.protocolError(error, device: name))
        }
    }

    static func protocolError(_ error: PulseError, device: String?) -> ProtocolError {
        if error.isUnknownEntity, let device {
            return ProtocolError(
                code: .unknownDevice,
                message: "There is no device named \"\(device)\"; `earshot devices` lists them."
            )
        }
        if error.isServerUnavailable {
            return ProtocolError(
                code: .soundServerUnavailable,
                message: "The sound server is not reachable (\(error.message)); Earshot keeps retrying."
            )
        }
        return ProtocolError(code: .internalError, message: "The sound server refused: \(error).")
    }
}

// MARK: Recordings

extension DaemonCommandHandler {
    /// `forget`: deletes every recording the daemon made once confirmed; before that, says
    /// what it would delete and how to confirm.
    func forget(confirm: Bool) async -> CommandResult {
        let directory = recordings.store.directory
        guard confirm else {
            let found: RecordingInventory
            do {
                found = try recordings.store.inventory()
            } catch {
                return .failure(ProtocolError(code: .forgetFailed, message: error.message))
            }
            let what = found.names.isEmpty ? "There are no recordings in \(directory), so nothing would be deleted" : "This deletes every recording earshotd made: \(found.summary) in \(directory)"
            return .failure(ProtocolError(
                code: .confirmationRequired,
                message: "\(what). To go ahead, send {\"cmd\":\"forget\",\"confirm\":true} (or run `earshot forget --yes`)."
            ))
        }
        session.responder?.forgetConversation()
        do {
            let deleted = try await recordings.forget()
            return .answer(ForgetAnswer(deleted: deleted.names.count, turns: deleted.turns.count, directory: directory))
        } catch {
            return .failure(ProtocolError(code: .forgetFailed, message: error.message))
        }
    }
}

// MARK: Answers from the daemon's own types

extension DeviceListAnswer {
    /// The sound server's devices, and the source and sink in use.
    init(_ list: PulseDeviceList, source: String?, sink: String?) {
        self.init(sources: list.sources.map(Device.init), sinks: list.sinks.map(Device.init), source: source, sink: sink)
    }
}

extension DeviceListAnswer.Device {
    init(_ device: PulseDevice) {
        self.init(name: device.name, description: device.description, isDefault: device.isDefault, isMonitor: device.isMonitor)
    }
}

extension VoiceListAnswer {
    /// Every voice of `catalog`, `current` marked.
    init(_ catalog: VoiceCatalog, current: Voice) {
        self.init(voices: catalog.voices.map { voice in
            Entry(id: voice.id, name: voice.displayName, description: voice.summary, language: voice.language, isCurrent: voice.id == current.id)
        })
    }
}
