import EarshotAudio
import EarshotRecordings
import EarshotTestSupport
import Foundation
import Testing

/// Privacy, live: without `--debug-turns` no audio reaches the disk; with it, exactly the last N
/// turns are kept as Ogg Opus with their details; `forget` deletes every recording and nothing else.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LivePrivacyTests {
    static let request = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path
    /// Where the request's speech runs in the fixture (`earshot replay`): its audio from 0.55 s.
    static let requestAudioStart = 0.55

    /// Sends `line` on a fresh connection and returns the response.
    static func request(_ socket: String, _ line: String) throws -> [String: Any] {
        var ignored: [[String: Any]] = []
        return try LineSocket(path: socket).request(line, events: &ignored)
    }

    static func subscribe(_ socket: String) throws -> LineSocket {
        let client = try LineSocket(path: socket)
        var ignored: [[String: Any]] = []
        let response = try client.request(#"{"id":"sub","cmd":"subscribe","topics":["state","speech","transcript"]}"#, events: &ignored)
        guard response["ok"] as? Bool == true else { throw LineSocket.Failure(description: "subscribe failed: \(response)") }
        return client
    }

    /// Plays the request into the microphone and returns the events of its turn, up to the
    /// return to `listening` after the turn (after the reply, when one is spoken).
    static func oneTurn(_ sound: PulseTestServer, _ client: LineSocket, replied: Bool) throws -> [[String: Any]] {
        let player = try sound.play(request)
        var events = client.events(timeout: 30) { $0["event"] as? String == "speech" && $0["phase"] as? String == "end" }
        if replied {
            events += client.events(timeout: 30) { $0["event"] as? String == "state" && $0["state"] as? String == "speaking" }
        }
        events += client.events(timeout: 30) { $0["event"] as? String == "state" && $0["state"] as? String == "listening" }
        _ = player.wait()
        return events
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    // MARK: (a) nothing on disk by default

    struct Untouched: Sendable {
        var speechEvents: Int
        var whileRunning: [String]
        var afterStopping: [String]
        var lockBytes: Int
        var libpulseLines: [String]
        var recording: [String: String]
    }

    static func turnWithRecordingOff() throws -> Untouched {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let home = try PrivateHome()
        let daemon = try home.startDaemon(sound, ["--listen", "--stt", "none", "--tts", "none"])
        let client = try subscribe(home.socketPath)
        let events = try oneTurn(sound, client, replied: false)
        let status = try request(home.socketPath, #"{"id":1,"cmd":"status"}"#)
        let whileRunning = home.files()
        _ = daemon.terminate()
        return Untouched(
            speechEvents: events.filter { $0["event"] as? String == "speech" && ["start", "end"].contains($0["phase"] as? String) }.count,
            whileRunning: whileRunning, afterStopping: home.files(),
            lockBytes: FileManager.default.contents(atPath: home.socketPath + ".lock")?.count ?? -1,
            libpulseLines: fileText((home.socketPath as NSString).deletingLastPathComponent + "/libpulse-client.conf")
                .split(separator: "\n").map(String.init),
            recording: ((status["recording"] as? [String: Any]) ?? [:]).mapValues { "\($0)" }
        )
    }

    @Test func byDefaultAWholeTurnWritesNoFileAnywhere() async throws {
        let run = try await onDedicatedThread { try Self.turnWithRecordingOff() }
        #expect(run.speechEvents == 2, "the turn was heard (a start and an end)")
        // Nothing in HOME or any XDG directory but the socket, the empty lock file that keeps a
        // second daemon off it, and libpulse's client configuration (settings only; both stay,
        // by design, when the daemon stops).
        let libpulse = "run/earshot/libpulse-client.conf"
        #expect(run.whileRunning == ["run/earshot/earshot.sock", "run/earshot/earshot.sock.lock", libpulse])
        #expect(run.afterStopping == ["run/earshot/earshot.sock.lock", libpulse])
        #expect(run.lockBytes == 0)
        #expect(run.libpulseLines.contains("enable-shm = no"))
        #expect(run.libpulseLines.allSatisfy { $0.hasPrefix("#") || $0 == "enable-shm = no" || $0.hasPrefix(".include /") },
                "\(run.libpulseLines)")
        #expect(run.recording["debug_turns"] == "0")
        #expect(run.recording["kept"] == "0")
        #expect(run.recording["directory"]?.hasSuffix("/home/.local/state/earshot/recordings") == true, "\(run.recording)")
    }
}

// MARK: Retention

extension LivePrivacyTests {
    /// What one kept turn looked like: on the socket, in its JSON file, in its Ogg Opus file.
    struct KeptTurn: Sendable {
        var turn: Int
        var speechAudioStart: Double
        var speechEnd: Double
        var finalTranscript: String?
        var details: [String: String]
        var json: String
        var opusSeconds: Double
        var match: (offset: Int, correlation: Double)
        var modes: [Int]
    }

    struct Retention: Sendable {
        var heardTurns: [Int]
        var recordingNames: [String]
        var kept: [KeptTurn]
        var directoryMode: Int
        var status: [String: String]
        var unconfirmed: [String: String]
        var namesAfterUnconfirmed: [String]
        var badConfirm: [String: String]
        var forgotten: [String: String]
        var namesAfterForget: [String]
        var namesAfterAnotherTurn: [String]
        var unrelated: [String]
        var directory: String
        var log: String
    }

    static let responder = #"read line; echo "You said $line.""#
    static let unrelatedFiles = ["notes.txt", "earshot-20261121T203000123-turn000001.wav"]

    /// The files in `directory` that are recordings, and the turn numbers their JSON names.
    static func recordingNames(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("earshot-") && !unrelatedFiles.contains($0) }.sorted()
    }

    static func details(_ path: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object.mapValues { $0 is NSNull ? "null" : "\($0)" }
    }

    static func strings(_ object: [String: Any]) -> [String: String] {
        var flat: [String: String] = [:]
        for (key, value) in object {
            if let nested = value as? [String: Any] {
                for (inner, innerValue) in nested { flat["\(key).\(inner)"] = "\(innerValue)" }
            } else {
                flat[key] = "\(value)"
            }
        }
        return flat
    }

    static func keepTwoOfThreeTurnsThenForget() throws -> Retention {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let home = try PrivateHome()
        let daemon = try home.startDaemon(sound, [
            "--listen", "--stt", "embedded", "--tts", "embedded", "--responder", responder, "--debug-turns", "2",
        ])
        defer { _ = daemon.terminate() }
        let client = try subscribe(home.socketPath)
        var turns: [[[String: Any]]] = []
        for _ in 1...3 { turns.append(try oneTurn(sound, client, replied: true)) }
        let directory = home.recordings
        // The last reply is added to its turn's details after the turn: wait for it.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, recordingNames(directory).count != 4 || details(directory + "/" + (recordingNames(directory).last ?? ""))["reply"] == "null" {
            usleep(50_000)
        }
        let names = recordingNames(directory)
        let fixture = AudioEnvelope.of(try WAVFile.read(request).samples)
        var kept: [KeptTurn] = []
        for name in names where name.hasSuffix(".json") {
            let details = details(directory + "/" + name)
            let turn = Int(details["turn"] ?? "") ?? 0
            let events = turns.indices.contains(turn - 1) ? turns[turn - 1] : []
            let start = events.first { $0["event"] as? String == "speech" && $0["phase"] as? String == "start" }
            let end = events.first { $0["event"] as? String == "speech" && $0["phase"] as? String == "end" }
            let final = events.first { $0["event"] as? String == "transcript" && $0["final"] as? Bool == true }
            let audioPath = directory + "/" + (details["audio"] ?? "")
            let decoded = try OpusFile.read(audioPath).samples
            kept.append(KeptTurn(
                turn: turn, speechAudioStart: start?["audio_start"] as? Double ?? -1, speechEnd: end?["t"] as? Double ?? -1,
                finalTranscript: final?["text"] as? String, details: details,
                json: fileText(directory + "/" + name),
                opusSeconds: Double(decoded.count) / 16_000,
                match: AudioEnvelope.bestMatch(of: AudioEnvelope.of(decoded), in: fixture),
                modes: [mode(directory + "/" + name), mode(audioPath)]
            ))
        }
        let status = strings(try request(home.socketPath, #"{"id":1,"cmd":"status"}"#)["recording"] as? [String: Any] ?? [:])
        for name in unrelatedFiles { try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }

        let unconfirmed = strings(try request(home.socketPath, #"{"id":2,"cmd":"forget"}"#))
        let namesAfterUnconfirmed = recordingNames(directory)
        let badConfirm = strings(try request(home.socketPath, #"{"id":3,"cmd":"forget","confirm":"yes"}"#))
        let forgotten = strings(try request(home.socketPath, #"{"id":4,"cmd":"forget","confirm":true}"#))
        let namesAfterForget = recordingNames(directory)
        _ = try oneTurn(sound, client, replied: true)
        let laterDeadline = Date().addingTimeInterval(5)
        while Date() < laterDeadline, recordingNames(directory).count < 2 { usleep(50_000) }
        return Retention(
            heardTurns: turns.compactMap { events in
                events.last { $0["event"] as? String == "state" && $0["state"] as? String == "speaking" }?["turn"] as? Int
            },
            recordingNames: names, kept: kept, directoryMode: mode(directory), status: status,
            unconfirmed: unconfirmed, namesAfterUnconfirmed: namesAfterUnconfirmed, badConfirm: badConfirm,
            forgotten: forgotten, namesAfterForget: namesAfterForget, namesAfterAnotherTurn: recordingNames(directory),
            unrelated: unrelatedFiles.filter { FileManager.default.fileExists(atPath: directory + "/" + $0) },
            directory: directory, log: home.log()
        )
    }

    @Test func debugTurnsKeepsTheLastTurnsAsOpusWithTheirDetailsAndForgetDeletesThem() async throws {
        let run = try await onDedicatedThread { try Self.keepTwoOfThreeTurnsThenForget() }
        #expect(run.heardTurns == [1, 2, 3], "three turns, each answered")

        // Exactly the last two turns, each an Opus file and its JSON, private.
        let run0 = run.recordingNames.first.map { String($0.dropFirst("earshot-".count).prefix(18)) } ?? "?"
        #expect(run.recordingNames == [2, 3].flatMap { turn in
            ["json", "opus"].map { "earshot-\(run0)-turn00000\(turn).\($0)" }
        }, "\(run.recordingNames)\n\(run.log.suffix(3000))")
        #expect(run.directoryMode == 0o700)
        #expect(run.kept.map(\.turn) == [2, 3])
        for kept in run.kept {
            print("privacy: \(String(format: "%.2f", kept.opusSeconds)) s of Opus, loudness contour correlation \(String(format: "%.3f", kept.match.correlation)) at \(kept.match.offset * 10) ms into the fixture: \(kept.json)", terminator: "")
            #expect(kept.modes == [0o600, 0o600], "turn \(kept.turn)")
            #expect(kept.details["run"] == run0)
            let audioStart = Double(kept.details["audio_start"] ?? "") ?? -1
            let audioEnd = Double(kept.details["audio_end"] ?? "") ?? -1
            // The audio runs from the utterance's start (prefix padding included) to its end,
            // the silence that ended the turn included (from the finished-turn silence, 250 ms,
            // to the longest, 1400 ms): what the transcriber was given.
            #expect(abs(audioStart - kept.speechAudioStart) <= 0.011, "turn \(kept.turn): \(audioStart) vs \(kept.speechAudioStart)")
            #expect(audioEnd >= kept.speechEnd + 0.25 && audioEnd <= kept.speechEnd + 1.6, "turn \(kept.turn): ends \(audioEnd), speech ended \(kept.speechEnd)")
            #expect(abs(kept.opusSeconds - (audioEnd - audioStart)) <= 0.02, "turn \(kept.turn): \(kept.opusSeconds) s of Opus")
            // It is the microphone's audio: its loudness contour is the fixture's, from where the
            // utterance starts in it.
            #expect(kept.match.correlation > 0.95, "turn \(kept.turn): \(kept.match)")
            #expect(abs(Double(kept.match.offset) * 0.01 - Self.requestAudioStart) <= 0.03, "turn \(kept.turn): \(kept.match)")
            let transcript = try #require(kept.finalTranscript, "turn \(kept.turn) had a final transcript")
            #expect(!transcript.isEmpty)
            #expect(kept.details["transcript"] == transcript)
            #expect(kept.details["reply"] == "You said \(transcript).")
            #expect(kept.details["truncated"] == "0")
        }
        #expect(run.status == ["debug_turns": "2", "directory": run.directory, "kept": "2"])

        // forget: asks first, deleting nothing; then deletes the recordings and only them.
        #expect(run.unconfirmed["ok"] == "0")
        #expect(run.unconfirmed["error.code"] == "confirmation_required")
        #expect(run.unconfirmed["error.message"] == "This deletes every recording earshotd made: 4 files (2 recorded turns) in \(run.directory). To go ahead, send {\"cmd\":\"forget\",\"confirm\":true} (or run `earshot forget --yes`).")
        #expect(run.namesAfterUnconfirmed == run.recordingNames)
        #expect(run.badConfirm["error.code"] == "invalid_argument")
        #expect(run.badConfirm["error.message"] == "The argument \"confirm\" must be true (to go ahead) or false, not \"yes\".")
        #expect(run.forgotten["ok"] == "1")
        #expect(run.forgotten["deleted"] == "4")
        #expect(run.forgotten["turns"] == "2")
        #expect(run.forgotten["directory"] == run.directory)
        #expect(run.namesAfterForget.isEmpty)
        #expect(run.unrelated == Self.unrelatedFiles, "files the daemon did not make stay")
        // Recording carries on after forget.
        #expect(run.namesAfterAnotherTurn == ["json", "opus"].map { "earshot-\(run0)-turn000004.\($0)" })
    }
}

// MARK: Forget

extension LivePrivacyTests {
    struct EarlierRecordings: Sendable {
        var recordedEarlier: [String]
        var status: [String: String]
        var statusText: String
        var unconfirmedCLI: (status: Int32, stdout: String, stderr: String)
        var namesAfterUnconfirmed: [String]
        var confirmedCLI: (status: Int32, stdout: String, stderr: String)
        var namesAfterForget: [String]
        var againCLI: (status: Int32, stdout: String, stderr: String)
        var unrelated: [String]
        var directory: String
    }

    /// A run with `--debug-turns` records a turn; the next run, with recording off, is asked to
    /// forget through the CLI.
    static func forgetWhatAnEarlierRunRecorded() throws -> EarlierRecordings {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let home = try PrivateHome()
        let directory = home.recordings
        let recording = try home.startDaemon(sound, ["--listen", "--stt", "none", "--tts", "none", "--debug-turns", "3"], log: "recording")
        _ = try oneTurn(sound, try subscribe(home.socketPath), replied: false)
        // Stopping writes what is still queued.
        _ = recording.terminate()
        let recordedEarlier = recordingNames(directory)
        for name in unrelatedFiles { try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }

        let daemon = try home.startDaemon(sound, ["--stt", "none", "--tts", "none"])
        defer { _ = daemon.terminate() }
        let status = strings(try request(home.socketPath, #"{"id":1,"cmd":"status"}"#)["recording"] as? [String: Any] ?? [:])
        let statusText = try home.earshot(sound, ["status"]).stdout
        let unconfirmed = try home.earshot(sound, ["forget"])
        let namesAfterUnconfirmed = recordingNames(directory)
        let confirmed = try home.earshot(sound, ["forget", "--yes"])
        let namesAfterForget = recordingNames(directory)
        let again = try home.earshot(sound, ["forget", "--yes"])
        return EarlierRecordings(
            recordedEarlier: recordedEarlier, status: status, statusText: statusText, unconfirmedCLI: unconfirmed,
            namesAfterUnconfirmed: namesAfterUnconfirmed, confirmedCLI: confirmed, namesAfterForget: namesAfterForget,
            againCLI: again, unrelated: unrelatedFiles.filter { FileManager.default.fileExists(atPath: directory + "/" + $0) },
            directory: directory
        )
    }

    @Test func forgetDeletesAnEarlierRunsRecordingsWithRecordingOff() async throws {
        let run = try await onDedicatedThread { try Self.forgetWhatAnEarlierRunRecorded() }
        #expect(run.recordedEarlier.count == 2, "one turn: its audio and its details: \(run.recordedEarlier)")
        #expect(run.status == ["debug_turns": "0", "directory": run.directory, "kept": "1"])
        #expect(run.statusText.contains("recording off · 1 turn recorded earlier in \(run.directory) (earshot forget deletes them)"), "\(run.statusText)")

        // Without --yes and with no terminal to ask on: the daemon's answer, nothing deleted.
        #expect(run.unconfirmedCLI.status == 1)
        #expect(run.unconfirmedCLI.stderr == "This deletes every recording earshotd made: 2 files (1 recorded turn) in \(run.directory). To go ahead, send {\"cmd\":\"forget\",\"confirm\":true} (or run `earshot forget --yes`).\n")
        #expect(run.namesAfterUnconfirmed == run.recordedEarlier)

        #expect(run.confirmedCLI.status == 0, "\(run.confirmedCLI.stderr)")
        #expect(run.confirmedCLI.stdout == "Deleted 2 files (1 recorded turn) from \(run.directory).\n")
        #expect(run.namesAfterForget.isEmpty)
        #expect(run.unrelated == Self.unrelatedFiles)
        #expect(run.againCLI.stdout == "There were no recordings to delete in \(run.directory).\n")
    }
}
