import EarshotAudio
import EarshotHarness
import Foundation

/// `earshot-bench voice [--eagerness E] [SET]`: the wait a person hears, voice to voice. Each turn
/// of a labelled turn set (turns-dev-2 by default) is played on its own into the virtual
/// microphone of the real daemon (embedded transcription and speech), which answers through an
/// instant responder; the microphone and the speaker's monitor are recorded and mapped to wall
/// time (`RecordingClock`).
///
/// gap = the reply's first sound at the speaker − the last sample of the person's turn (its
/// labelled end, found in the microphone's recording by the turn's own samples). A reply that
/// starts before the person's turn has ended is a cut-off: it began in a pause mid-sentence.
enum VoiceToVoiceBench {
    /// Answers at once, whatever was said, and notes when on the wall clock (before its line, so
    /// the figure from it includes the `echo`).
    static func responder(noting times: String) -> String {
        "#!/bin/sh\ncat >/dev/null\ndate +%s.%N >> '\(times)'\necho 'Okay.'\n"
    }
    /// The assistant's answer, from the chat test server: its first sentence is seven tokens.
    static let assistantReply = "Sure, I can help with that. Tell me more."

    /// With `--assistant-…`: the built-in assistant answers instead of the responder, from the
    /// chat test server at this pace.
    struct AssistantPace {
        var firstTokenMilliseconds: Double
        var tokensPerSecond: Double
    }
    /// Audio of the scene kept before a turn, so the detector hears its onset as it would.
    static let lead = 0.4
    /// How long after the person's end a reply may take before the turn counts as unanswered.
    static let answerWindow = 8.0

    struct Turn {
        var scene: String
        var file: String
        var id: Int
        var kind: String
        var start: Double
        var end: Double
        var text: String
    }

    struct Outcome {
        var turn: Turn
        /// Seconds from the person's end to the reply's first sound; nil when no reply came.
        var gap: Double?
        /// Seconds from the person's end to the last `thinking` before the reply: the end of
        /// turn as decided live (the turn tables' EOT, from replay, beside it).
        var decided: Double? = nil
        /// What the endpointer said decided the end (`finished`, `silence`, `unfinished`, …).
        var reason: String? = nil
        /// After the decision: to the final transcript, to the speaker's `start`, to the first sound.
        var toFinal: Double? = nil
        var toSpeakerStart: Double? = nil
        var toSound: Double? = nil
        /// From the answer's first text (the responder's line, the chat server's first token) to
        /// the first sound; and from the later of that text and the decision, Earshot's own share
        /// when an eager end had the text before the turn was sure.
        var textToSound: Double? = nil
        /// The person went on soon after an end (a `resumed` after its `end`): one turn again.
        var rejoined = false
        /// The turn's last final transcript: after a rejoin, of both utterances.
        var lastFinal: String? = nil
        var readyToSound: Double? = nil
        /// Whether the first text came before the decision (an eager end's request).
        var textBeforeDecision = false
    }

    static func run(set: String, eagerness: String?, assistant: AssistantPace? = nil) throws {
        guard FileManager.default.fileExists(atPath: set + "/turns.csv") else {
            print("The turn set is absent (\(set)/turns.csv): voice to voice needs it (earshot-bench voice SET).")
            return
        }
        guard PulseTestServer.isAvailable else {
            throw LiveBench.Failure(description: "pulseaudio, paplay and parec are needed (make deps installs them)")
        }
        let turns = try readTurns(set)
        let signalSources = ChildGuard.install()
        defer { withExtendedLifetime(signalSources) {} }
        let directory = NSTemporaryDirectory() + "earshot-voice-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let responderPath = directory + "/instant-responder.sh"
        let responderTimes = directory + "/responder-times"
        try responder(noting: responderTimes).write(toFile: responderPath, atomically: true, encoding: .utf8)
        chmod(responderPath, 0o755)
        let chatServer = try assistant.map { pace in
            try SpeechServerProcess(.openAIChat([
                "--reply", assistantReply, "--first-token-ms", "\(pace.firstTokenMilliseconds)",
                "--tokens-per-second", "\(pace.tokensPerSecond)",
            ]))
        }
        defer { chatServer?.stop() }
        // Each line ends with a wall time: the responder's own, the server's "first token at T".
        let textTimesPath = chatServer?.logPath ?? responderTimes
        let textTimes = { fileText(textTimesPath).split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Double($0) } } }
        let answering = chatServer.map { ["--assistant", $0.uri, "--assistant-model", "earshot-test"] } ?? ["--responder", responderPath]
        let session = try SpeechSession(
            daemonArguments: ["--stt", "embedded", "--tts", "embedded"] + answering
                + (eagerness.map { ["--eagerness", $0] } ?? []),
            topics: ["state", "speech", "transcript", "speaker"]
        )
        var scenes: [String: [Float]] = [:]
        var outcomes: [Outcome] = []
        for turn in turns {
            if scenes[turn.scene] == nil { scenes[turn.scene] = try WAVFile.read(set + "/" + turn.file).samples }
            let outcome = try play(turn, from: scenes[turn.scene]!, in: session, directory: directory, textTimes: textTimes)
            SpeechBench.progress("\(turn.scene) turn \(turn.id) (\(turn.kind)): "
                + (outcome.gap.map { String(format: "%.0f ms", $0 * 1000) } ?? "no reply")
                + (outcome.decided.map { decided in
                    String(format: " (decided %.0f, ", decided * 1000) + (outcome.reason ?? "?")
                        + String(format: ", then %.0f to the sound)", (outcome.toSound ?? .nan) * 1000)
                } ?? "")
                + " — \(turn.text)", from: "voice")
            outcomes.append(outcome)
        }
        report(outcomes, eagerness: eagerness ?? "medium", answeredBy: assistant.map {
            "the assistant (chat test server: first token after \(Int($0.firstTokenMilliseconds)) ms, "
                + ($0.tokensPerSecond > 0 ? "\(Int($0.tokensPerSecond)) tokens/s)" : "tokens at once)")
        } ?? "an instant responder")
    }

    /// Plays one turn and waits for the reply to be over; returns when the reply began.
    static func play(
        _ turn: Turn, from scene: [Float], in session: SpeechSession, directory: String, textTimes: () -> [Double]
    ) throws -> Outcome {
        let rate = Double(AudioFrame.sampleRate)
        let first = max(0, Int((turn.start - lead) * rate))
        let last = min(scene.count, Int((turn.end + 0.05) * rate))
        let cut = Array(scene[first..<last])
        let path = directory + "/\(turn.scene)-\(turn.id).wav"
        try WAVFile.write(AudioClip(samples: cut), to: path)
        let endInCut = Int((turn.end * rate).rounded()) - first

        session.clearEvents()
        let microphone = RecordingClock(try session.sound.record(from: "mic"))
        let speaker = RecordingClock(try session.sound.record())
        Thread.sleep(forTimeInterval: 0.3)
        let player = try session.sound.play(path)
        _ = player.wait()
        // The reply, if any, begins within the window and ends with the turn back at listening.
        session.wait(timeout: answerWindow) { $0["event"] as? String == "speaker" && $0["phase"] as? String == "end" }
        session.wait(timeout: 2, forState: "listening")
        Thread.sleep(forTimeInterval: 0.3)
        let heard = microphone.stop()
        let played = speaker.stop()
        // A turn cut at an inner pause can leave the daemon thinking or speaking: settle it.
        try session.request(#"{"id":"cancel","cmd":"cancel"}"#)
        session.wait(timeout: 2, forState: "listening")

        guard let start = locate(cut, in: heard) else { return Outcome(turn: turn, gap: nil) }
        let personEnd = microphone.wall(start + endInCut)
        guard let reply = SpeechBench.firstLoud(played) else { return Outcome(turn: turn, gap: nil) }
        let replyStart = speaker.wall(reply)
        let decision = session.events.last { event in
            event["event"] as? String == "state" && event["state"] as? String == "thinking"
                && (event["wall"] as? Double).map { $0 <= replyStart } == true
        }
        let decided = decision?["wall"] as? Double
        func firstWall(after start: Double, _ matches: ([String: Any]) -> Bool) -> Double? {
            session.events.compactMap { event in matches(event) ? event["wall"] as? Double : nil }.first { $0 >= start }
        }
        var outcome = Outcome(turn: turn, gap: replyStart - personEnd, decided: decided.map { $0 - personEnd })
        if let decided {
            // The decided turn's final, which an eager end has ready before the decision.
            let turn = decision?["turn"] as? Int
            outcome.toFinal = session.events.first { event in
                event["event"] as? String == "transcript" && event["final"] as? Bool == true && event["turn"] as? Int == turn
            }.flatMap { $0["wall"] as? Double }.map { $0 - decided }
            outcome.toSpeakerStart = firstWall(after: decided) { $0["event"] as? String == "speaker" && $0["phase"] as? String == "start" }
                .map { $0 - decided }
            outcome.toSound = replyStart - decided
            if let text = textTimes().last(where: { $0 <= replyStart && $0 >= microphone.wall(start) }) {
                outcome.textToSound = replyStart - text
                outcome.readyToSound = replyStart - max(text, decided)
                outcome.textBeforeDecision = text < decided
            }
            outcome.reason = session.events.last { event in
                event["event"] as? String == "speech" && event["phase"] as? String == "end" && event["turn"] as? Int == turn
                    && (event["wall"] as? Double).map { $0 <= decided } == true
            }?["reason"] as? String
        }
        let ended = Set(session.events.compactMap { event -> Int? in
            event["event"] as? String == "speech" && event["phase"] as? String == "end" ? event["turn"] as? Int : nil
        })
        outcome.rejoined = session.events.contains { event in
            event["event"] as? String == "speech" && event["phase"] as? String == "resumed"
                && (event["turn"] as? Int).map(ended.contains) == true
        }
        outcome.lastFinal = session.events.last { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }?["text"] as? String
        return outcome
    }

    /// Where `cut` begins in `recording`: the loopback into the virtual microphone is bit-exact,
    /// so its first distinct samples are found as they are.
    static func locate(_ cut: [Float], in recording: [Float]) -> Int? {
        guard let anchor = cut.firstIndex(where: { abs($0) > 0.01 }), anchor + 32 <= cut.count else { return nil }
        let probe = cut[anchor..<(anchor + 32)]
        guard recording.count >= 32 else { return nil }
        for index in 0...(recording.count - 32) where abs(recording[index] - probe.first!) < 1e-4 {
            if zip(recording[index..<(index + 32)], probe).allSatisfy({ abs($0 - $1) < 1e-4 }) { return index - anchor }
        }
        return nil
    }

    static func readTurns(_ set: String) throws -> [Turn] {
        var files: [String: String] = [:]
        for line in try String(contentsOfFile: set + "/manifest.csv", encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count >= 2 { files[String(fields[1].dropLast(".json".count))] = fields[0] }
        }
        return try String(contentsOfFile: set + "/turns.csv", encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let fields = line.split(separator: ",", maxSplits: 6, omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, let id = Int(fields[1]), let start = Double(fields[3]), let end = Double(fields[4]),
                let file = files[fields[0]]
            else { return nil }
            return Turn(scene: fields[0], file: file, id: id, kind: fields[2], start: start, end: end, text: fields[6])
        }
    }

    static func report(_ outcomes: [Outcome], eagerness: String, answeredBy: String) {
        print("Voice to voice (earshot-bench voice, eagerness \(eagerness)): a turn at a time into the virtual microphone, "
            + "\(answeredBy), embedded transcription and speech")
        print("| turns | answered | median gap | p90 | min | max | replies before the end | end decided, median / p90 |")
        print("|---|---|---|---|---|---|---|---|")
        let kinds = ["all"] + Array(Set(outcomes.map(\.turn.kind))).sorted()
        for kind in kinds {
            let chosen = outcomes.filter { kind == "all" || $0.turn.kind == kind }
            var gaps = LatencySample(kind)
            for outcome in chosen { gaps.add(outcome.gap, orMiss: "no reply") }
            var decisions = LatencySample(kind)
            for outcome in chosen where outcome.gap != nil { decisions.add(outcome.decided, orMiss: "no thinking") }
            let cutOffs = chosen.filter { ($0.gap ?? 0) < 0 }.count
            let ms = { (value: Double) in value.isNaN ? "–" : String(format: "%.0f", value * 1000) }
            print("| \(kind) (\(chosen.count)) | \(gaps.values.count) | \(ms(gaps.median)) | \(ms(gaps.percentile(0.9))) | "
                + "\(ms(gaps.values.min() ?? .nan)) | \(ms(gaps.values.max() ?? .nan)) | \(cutOffs) | "
                + "\(ms(decisions.median)) / \(ms(decisions.percentile(0.9))) |")
        }
        var toFinal = LatencySample("decision → final"), toSpeaker = LatencySample("decision → speaker start")
        var toSound = LatencySample("decision → first sound")
        for outcome in outcomes where outcome.decided != nil {
            toFinal.add(outcome.toFinal, orMiss: "no final")
            toSpeaker.add(outcome.toSpeakerStart, orMiss: "no speaker start")
            toSound.add(outcome.toSound, orMiss: "no sound")
        }
        var textToSound = LatencySample("text → first sound"), readyToSound = LatencySample("ready → first sound")
        for outcome in outcomes where outcome.gap != nil {
            textToSound.add(outcome.textToSound, orMiss: "no text time")
            readyToSound.add(outcome.readyToSound, orMiss: "no text time")
        }
        let ms = { (value: Double) in value.isNaN ? "–" : String(format: "%.0f", value * 1000) }
        print("Text to first sound (answered turns), median / p90: from the answer's first text \(ms(textToSound.median)) / "
            + "\(ms(textToSound.percentile(0.9))) ms; from the later of it and the decision \(ms(readyToSound.median)) / "
            + "\(ms(readyToSound.percentile(0.9))) ms (\(outcomes.filter(\.textBeforeDecision).count) of \(textToSound.values.count) "
            + "texts came before the decision).")
        print("After the decision (all turns), median / p90: final transcript \(ms(toFinal.median)) / \(ms(toFinal.percentile(0.9))) ms, "
            + "speaker `start` \(ms(toSpeaker.median)) / \(ms(toSpeaker.percentile(0.9))) ms, "
            + "first sound \(ms(toSound.median)) / \(ms(toSound.percentile(0.9))) ms.")
        let thinking = outcomes.filter { $0.turn.kind == "thinking" }
        let cutOff = thinking.filter { ($0.gap ?? 0) < 0 }
        print("Cut-offs (a reply begun in a pause mid-sentence): \(cutOff.count) of \(thinking.count) "
            + "turns with thinking pauses; \(cutOff.filter(\.rejoined).count) of them rejoined (the person went on within 1.2 s: "
            + "the reply stopped, one transcript of both parts answered).")
        for outcome in cutOff {
            print("  \(outcome.turn.scene) turn \(outcome.turn.id) \"\(outcome.turn.text)\": "
                + (outcome.rejoined ? "rejoined, answered \"\(outcome.lastFinal ?? "")\"" : "not rejoined, last final \"\(outcome.lastFinal ?? "")\""))
        }
        print("gap = the reply's first sound at the speaker − the person's last sample (ms); a reply before the end began "
            + "in one of the turn's pauses (mid-sentence for `thinking`, before an afterthought for `hesitation`); "
            + "end decided = the last `thinking` before the reply − the person's last sample; "
            + "after the decision, a final transcript below 0 was ready before it (an eager end's); "
            + "the answer's first text: when the responder wrote its line, or the chat server sent its first token.")
    }
}
