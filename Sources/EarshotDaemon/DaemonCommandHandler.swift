import EarshotBase
import EarshotAudio
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
        case .dismiss: turn { $0.dismiss() }
        case .stop: turn { $0.stop() }
        case .cancel: turn { $0.cancel() }
        case .mute: turn { $0.mute() }
        case .unmute: turn { $0.unmute() }
        case .devices: await devices()
        case .setSource(let name): await route(setting: "source", to: name) { () async throws(PulseError) in try await engine.setSource(name) }
        case .setSink(let name): await route(setting: "sink", to: name) { () async throws(PulseError) in try await engine.setSink(name) }
        case .speak(let text, let voiceName, let turn):
            speak(text, voiceName: voiceName, turn: turn)
        case .voices:
            .success(["voices": session.voiceListing])
        case .setVoice(let name):
            setVoice(name)
        case .preview(let name):
            preview(name)
        case .forget(let confirm):
            await forget(confirm: confirm)
        case .subscribe, .unsubscribe:
            // The server answers these itself; reaching here is a wiring mistake, said plainly.
            .failure(ProtocolError(code: .internalError, message: "\(command.name) is handled by the socket server."))
        }
    }

    private func turn(_ input: @Sendable (inout TurnMachine<StreamClock>) -> TurnAction) -> CommandResult {
        switch session.apply(input) {
        case .success(let snapshot): .success(["state": .object(VoiceState(snapshot).fields)])
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
        case .success(let snapshot): return .success(["state": .object(VoiceState(snapshot).fields)])
        case .failure(let error): return .failure(error)
        }
    }

    private func setVoice(_ name: String) -> CommandResult {
        switch session.voice(named: name) {
        case .success(let voice):
            session.currentVoice = voice
            return .success(["voice": .string(voice.id)])
        case .failure(let error):
            return .failure(error)
        }
    }

    private func preview(_ name: String?) -> CommandResult {
        let found = name.map { session.voice(named: $0) } ?? .success(session.currentVoice)
        switch found.flatMap({ voice in session.preview(voice).map { (voice, $0) } }) {
        case .success(let (voice, snapshot)): return .success(["voice": .string(voice.id), "state": .object(VoiceState(snapshot).fields)])
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
        return .success(status.fields)
    }

    private func devices() async -> CommandResult {
        do {
            let list = try await engine.devices()
            let status = engine.status
            func entries(_ devices: [PulseDevice]) -> JSONValue {
                .array(devices.map { device in
                    .object([
                        "name": .string(device.name), "description": .string(device.description),
                        "default": .bool(device.isDefault), "monitor": .bool(device.isMonitor),
                    ])
                })
            }
            return .success([
                "sources": entries(list.sources), "sinks": entries(list.sinks),
                "source": .optional(status.source), "sink": .optional(status.sink),
            ])
        } catch {
            return .failure(Self.protocolError(error, device: nil))
        }
    }

    private func route(setting key: String, to name: String?, _ change: () async throws(PulseError) -> String) async -> CommandResult {
        do {
            let inUse = try await change()
            return .success([key: .string(inUse), "following_default": .bool(name == nil)])
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
        do {
            let deleted = try await recordings.forget()
            return .success(["deleted": .integer(deleted.names.count), "turns": .integer(deleted.turns.count), "directory": .string(directory)])
        } catch {
            return .failure(ProtocolError(code: .forgetFailed, message: error.message))
        }
    }
}
