@testable import EarshotDaemon
import EarshotBase
import EarshotProtocol
import EarshotPulse
import EarshotTestSupport
import Testing

/// What `DaemonCommandHandler` answers each kind of command, and what it does to the session
/// and the sound-server engine, on real parts with no sound server (`SessionRig`): the answer's
/// keys, each refusal's code and words, the microphone the turn machine asked for.
@Suite struct DaemonCommandHandlerTests {
    @Test func statusTellsTheProtocolTheStateAndThatTheSoundServerIsAway() async throws {
        let rig = try SessionRig()
        let status = try await rig.respond(to: .status)
        #expect(status["ok"] == true)
        #expect(status["protocol"] == .integer(DaemonStatus.currentProtocolVersion))
        #expect(status["state"]?["state"] == "idle")
        #expect(status["audio"]?["connected"] == false)
        #expect(status["backends"]?["speech"] == "none")
        #expect(status["backends"]?["transcription"] == "none")
        #expect(status["backends"]?["voice"] == "breeze")
        #expect(status["backends"]?["replies"] == "front ends")
        #expect(status["errors"] == .array([]))
        #expect(status["config_file"] == .null)
    }

    @Test func turnCommandsAnswerTheNewStateAndOpenCloseOrSilenceTheMicrophone() async throws {
        let rig = try SessionRig()
        #expect(rig.engine.microphone == .closed)

        let started = try await rig.respond(to: .start)
        #expect(started["ok"] == true)
        #expect(started["state"]?["state"] == "listening")
        #expect(rig.engine.microphone == .open)

        let muted = try await rig.respond(to: .mute)
        #expect(muted["state"]?["muted"] == true)
        #expect(rig.engine.microphone == .silenced)

        let unmuted = try await rig.respond(to: .unmute)
        #expect(unmuted["state"]?["muted"] == false)
        #expect(rig.engine.microphone == .open)

        let dismissed = try await rig.respond(to: .dismiss)
        #expect(dismissed["state"]?["state"] == "idle")
        #expect(rig.engine.microphone == .closed)
        #expect(rig.session.snapshot.phase == .idle)
    }

    @Test func toggleTurnsVoiceModeOnThenOff() async throws {
        let rig = try SessionRig()
        #expect(try await rig.respond(to: .toggle)["state"]?["state"] == "listening")
        #expect(rig.engine.microphone == .open)
        #expect(try await rig.respond(to: .toggle)["state"]?["state"] == "idle")
        #expect(rig.engine.microphone == .closed)
    }

    @Test func theTalkKeyOpensAHeldTurnFromOffAndItsReleaseEndsIt() async throws {
        let rig = try SessionRig()
        let held = try await rig.respond(to: .hold)
        #expect(held["ok"] == true)
        #expect(held["state"]?["turn"] == 1)
        #expect(rig.engine.microphone == .open, "voice mode off, the talk key opens the microphone for its turn")
        let released = try await rig.respond(to: .release)
        #expect(released["ok"] == true)
        #expect(try await rig.respond(to: .release)["error"]?["code"] == "not_held")
    }

    /// Each refusal of the turn machine reaches the front end as its code and a sentence that
    /// says what to do; the state does not change.
    @Test func aTurnCommandTheMachineRefusesIsAnErrorWithItsCodeInWords() async throws {
        let rig = try SessionRig()
        let refusals: [(Command, String, String)] = [
            (.stop, "voice_mode_off", "Voice mode is off; send start to turn it on."),
            (.mute, "voice_mode_off", "Voice mode is off; send start to turn it on."),
            (.dismiss, "voice_mode_off", "Voice mode is off; send start to turn it on."),
            (.release, "not_held", ""),
        ]
        for (command, code, message) in refusals {
            let answer = try await rig.respond(to: command)
            #expect(answer["ok"] == false, "\(command)")
            #expect(answer["error"]?["code"] == .string(code), "\(command)")
            if !message.isEmpty { #expect(answer["error"]?["message"] == .string(message), "\(command)") }
        }
        _ = try await rig.respond(to: .start)
        let moreRefusals: [(Command, String)] = [
            (.start, "voice_mode_already_on"), (.unmute, "not_muted"), (.stop, "nothing_playing"), (.cancel, "nothing_to_cancel"),
        ]
        for (command, code) in moreRefusals {
            let answer = try await rig.respond(to: command)
            #expect(answer["error"]?["code"] == .string(code), "\(command)")
            #expect(answer["error"]?["message"]?.stringValue?.isEmpty == false)
        }
        _ = try await rig.respond(to: .mute)
        #expect(try await rig.respond(to: .mute)["error"]?["code"] == "already_muted")
        #expect(rig.engine.microphone == .silenced, "a refused command changes nothing")
        #expect(rig.session.snapshot.phase == .listening)
    }

    @Test func withSpeechOffSpeakAndPreviewSaySoAndHowToTurnItOn() async throws {
        let rig = try SessionRig()
        _ = try await rig.respond(to: .start)
        let spoken = try await rig.respond(to: .speak(text: "Hello.", voice: nil, turn: nil))
        #expect(spoken["error"]?["code"] == "speech_off")
        #expect(spoken["error"]?["message"] == "Speech is off: start earshotd with --tts embedded or a Wyoming server.")
        #expect(try await rig.respond(to: .preview(nil))["error"]?["code"] == "speech_off")
        #expect(rig.session.snapshot.phase == .listening)
    }

    /// An unknown voice is refused, naming the voices there are, whatever the command; it is
    /// never stood in for, and the current voice stays.
    @Test func anUnknownVoiceIsRefusedNamingTheVoicesThereAre() async throws {
        let rig = try SessionRig()
        let message: JSONValue = "There is no voice called \"ember\". Voices: breeze, cove."
        for command in [Command.speak(text: "Hello.", voice: "ember", turn: nil), .setVoice("ember"), .preview("ember")] {
            let answer = try await rig.respond(to: command)
            #expect(answer["error"]?["code"] == "unknown_voice", "\(command)")
            #expect(answer["error"]?["message"] == message, "\(command)")
        }
        #expect(rig.session.currentVoice == SessionRig.breeze)
    }

    @Test func setVoiceChangesTheVoiceTheListAndStatusShow() async throws {
        let rig = try SessionRig()
        #expect(try await rig.respond(to: .setVoice("Cove")) == ["id": 1, "ok": true, "voice": "cove"])
        #expect(rig.session.currentVoice == SessionRig.cove)
        let voices = try await rig.respond(to: .voices)
        let listed = voices["voices"]?.arrayValue ?? []
        #expect(listed.map { $0["id"] } == ["breeze", "cove"])
        #expect(listed.map { $0["current"] } == [false, true])
        #expect(try await rig.respond(to: .status)["backends"]?["voice"] == "cove")
    }

    /// The device commands need the sound server; while it is away they say so, and that
    /// Earshot keeps trying.
    @Test func deviceCommandsSayTheSoundServerIsAway() async throws {
        let rig = try SessionRig()
        for command in [Command.devices, .setSink("hdmi"), .setSource("usb-mic")] {
            let answer = try await rig.respond(to: command)
            #expect(answer["error"]?["code"] == "sound_server_unavailable", "\(command)")
            #expect(answer["error"]?["message"]?.stringValue?.hasSuffix("Earshot keeps retrying.") == true, "\(command)")
        }
    }

    @Test func forgetAsksForConfirmationThenDeletes() async throws {
        let rig = try SessionRig()
        let asked = try await rig.respond(to: .forget(confirm: false))
        #expect(asked["error"]?["code"] == "confirmation_required")
        #expect(asked["error"]?["message"]?.stringValue?.hasPrefix("There are no recordings in \(rig.directory)/recordings, so nothing would be deleted.") == true)
        #expect(asked["error"]?["message"]?.stringValue?.contains("earshot forget --yes") == true)
        let forgotten = try await rig.respond(to: .forget(confirm: true))
        #expect(forgotten == ["id": 1, "ok": true, "deleted": 0, "turns": 0, "directory": .string(rig.directory + "/recordings")])
    }

    /// The socket server answers these itself; one reaching the handler is a wiring mistake,
    /// said plainly rather than done.
    @Test func aCommandTheServerOwnsIsAnInternalErrorIfItReachesTheHandler() async throws {
        let rig = try SessionRig()
        for command in [Command.subscribe(topics: [], levelHz: 30), .unsubscribe, .claim(holder: "agent"), .unclaim] {
            let answer = try await rig.respond(to: command)
            #expect(answer["error"]?["code"] == "internal_error", "\(command)")
            #expect(answer["error"]?["message"] == .string("\(command.name) is handled by the socket server."))
        }
    }

    /// Through the real socket server, as a front end sends them: what cannot be a command is
    /// refused before the handler, with its code; the conversation's claim makes another
    /// connection's claim busy, while its commands still reach the handler (the claim is advisory).
    @Test func overTheSocketBadRequestsAreRefusedAndAClaimMakesOthersBusy() async throws {
        let rig = try SessionRig()
        let answers = try await rig.withSocket { path in
            try await onDedicatedThread { () throws -> [String?] in
                let first = try LineSocket(path: path), second = try LineSocket(path: path)
                // Generous bounds: the handler runs on the threads every suite running in parallel shares.
                var events: [[String: Any]] = []
                func code(_ answer: [String: Any]) -> String? {
                    (answer["error"] as? [String: Any])?["code"] as? String ?? (answer["ok"] as? Bool == true ? "ok" : nil)
                }
                return [
                    code(try first.request(#"{"id":1,"cmd":"sing"}"#, events: &events, timeout: 60)),
                    code(try first.request(#"{"id":2,"cmd":"start""#, events: &events, timeout: 60)),
                    code(try first.request(#"{"id":3}"#, events: &events, timeout: 60)),
                    code(try first.request(#"{"id":4,"cmd":"speak"}"#, events: &events, timeout: 60)),
                    code(try first.request(#"{"id":5,"cmd":"claim","holder":"agent one"}"#, events: &events, timeout: 60)),
                    code(try second.request(#"{"id":6,"cmd":"claim","holder":"agent two"}"#, events: &events, timeout: 60)),
                    code(try second.request(#"{"id":7,"cmd":"start"}"#, events: &events, timeout: 60)),
                    code(try second.request(#"{"id":8,"cmd":"start"}"#, events: &events, timeout: 60)),
                ]
            }
        }
        #expect(answers == [
            "unknown_cmd", "invalid_json", "missing_cmd", "invalid_argument", "ok", "busy", "ok", "voice_mode_already_on",
        ])
        #expect(rig.engine.microphone == .open)
    }
}
