import EarshotAudio
import EarshotHarness
import Foundation

/// `earshot-bench speech [--repeats N]`: how fast the real daemon starts speaking, stops, yields
/// to a person talking over it, and delivers final transcripts, on a private headless
/// PulseAudio. Sound is timed in recordings of the speaker's monitor and the microphone, mapped
/// to wall time by `RecordingClock`; the daemon's events carry wall time themselves.
enum SpeechBench {
    /// Samples above this (−34 dBFS) count as sound, as in the live speaking tests.
    static let loud: Float = 0.02
    static let fixture = "Tests/Fixtures/speech/two_requests_slt.wav"
    static let shortReply = "Turning on the kitchen lights."
    static let longReply = Array(repeating: "This sentence keeps the speaker busy for a good while.", count: 12)
        .joined(separator: " ")

    static func run(repeats: Int) throws {
        guard PulseTestServer.isAvailable else {
            throw LiveBench.Failure(description: "pulseaudio, paplay and parec are needed (make deps installs them)")
        }
        guard FileManager.default.fileExists(atPath: fixture) else {
            throw LiveBench.Failure(description: "\(fixture) is missing: run from the package's directory")
        }
        let signalSources = ChildGuard.install()
        defer { withExtendedLifetime(signalSources) {} }
        var rows: [LatencySample] = []
        var notes: [String] = []
        try timed("speak") { rows.append(try speakToSound(tts: "embedded", label: "embedded (flite)", repeats: repeats, notes: &notes)) }
        try timed("stop") { rows.append(try stopToSilence(repeats: repeats, notes: &notes)) }
        try timed("barge-in") { rows.append(try bargeInToSilence(repeats: repeats, notes: &notes)) }
        try timed("embedded STT") {
            rows += try transcription(stt: "embedded", label: "embedded (pocketsphinx)", repeats: repeats, notes: &notes)
        }
        if SpeechServerProcess.isAvailable {
            try timed("Wyoming STT") { rows += try wyomingTranscription(repeats: repeats, notes: &notes) }
            try timed("Wyoming TTS") {
                rows.append(try withServer(.textToSpeech) { server in
                    try speakToSound(tts: server.uri, label: "Wyoming (wyoming-ovos-tts, espeak-ng)", repeats: repeats, notes: &notes)
                })
            }
        } else {
            notes.append("Wyoming rows skipped: the Wyoming servers are not installed in "
                + "\(SpeechServerProcess.venvPath) (run `make peers`).")
        }
        if SpeechServerProcess.isOpenAIAvailable {
            try timed("OpenAI STT") {
                rows += try withServer(.openAI([])) { server in
                    try transcription(
                        stt: server.uri, label: "OpenAI-compatible (test server, pocketsphinx)", repeats: repeats, notes: &notes
                    )
                }
            }
            try timed("OpenAI TTS") {
                rows.append(try withServer(.openAI([])) { server in
                    try speakToSound(tts: server.uri, label: "OpenAI-compatible (test server, espeak-ng)", repeats: repeats, notes: &notes)
                })
            }
        } else {
            notes.append("OpenAI-compatible rows skipped: the test server's packages are not installed in "
                + "\(SpeechServerProcess.venvPath) (run `make peers`).")
        }

        print("Speech latency: the real daemon on a private PulseAudio, \(repeats) repetitions each (ms)")
        print("| measure | n | median | p90 | min | max |")
        print("|---|---|---|---|---|---|")
        for row in rows { print(row.tableRow) }
        for note in notes { print("- " + note) }
        for row in rows where !row.misses.isEmpty {
            print("- \(row.name), missed: \(row.misses.joined(separator: "; "))")
        }
    }

    static func wyomingTranscription(repeats: Int, notes: inout [String]) throws -> [LatencySample] {
        try withServer(.speechToText) { server in
            try transcription(stt: server.uri, label: "Wyoming (wyoming-ovos-stt, pocketsphinx)", repeats: repeats, notes: &notes)
        }
    }

    /// Runs `body` with a speech server of `kind` that is killed afterwards, even when the bench is interrupted.
    static func withServer<Result>(_ kind: SpeechServerProcess.Kind, _ body: (SpeechServerProcess) throws -> Result) throws -> Result {
        let server = try SpeechServerProcess(kind)
        ChildGuard.register(server.pid)
        defer {
            let pid = server.pid
            server.stop()
            ChildGuard.unregister(pid)
        }
        return try body(server)
    }

    static func timed(_ label: String, _ body: () throws -> Void) rethrows {
        let start = RecordingClock.now()
        try body()
        progress("\(label) measured in \(String(format: "%.0f", RecordingClock.now() - start)) s")
    }

    /// Progress goes to stderr, so that stdout holds only the table.
    static func progress(_ line: String, from bench: String = "speech") {
        FileHandle.standardError.write(Data(("earshot-bench \(bench): " + line + "\n").utf8))
    }

    static func firstLoud(_ samples: [Float], from start: Int = 0) -> Int? {
        samples[min(start, samples.count)...].firstIndex { abs($0) > loud }
    }

    static func lastLoud(_ samples: [Float]) -> Int? {
        samples.lastIndex { abs($0) > loud }
    }

    static func isState(_ event: [String: Any], _ state: String) -> Bool {
        event["event"] as? String == "state" && event["state"] as? String == state
    }

    static func speakRequest(_ text: String) -> String {
        #"{"id":"say","cmd":"speak","text":"\#(text)"}"#
    }
}

// MARK: Speaking, stopping, barge-in

extension SpeechBench {
    /// Sending `speak` (a short sentence, while listening) → its first loud sample in the speaker's
    /// monitor. One unrecorded round first: the first synthesis loads the voice.
    static func speakToSound(tts: String, label: String, repeats: Int, notes: inout [String]) throws -> LatencySample {
        let session = try SpeechSession(daemonArguments: ["--stt", "none", "--tts", tts], topics: ["state"])
        var sample = LatencySample("`speak` → first sound at the speaker, \(label)")
        var slack: [Double] = []
        for round in 0...repeats {
            let speaker = RecordingClock(try session.sound.record())
            Thread.sleep(forTimeInterval: 0.3)
            session.clearEvents()
            let sent = RecordingClock.now()
            let response = try session.request(speakRequest(shortReply))
            guard response["ok"] as? Bool == true else {
                throw LiveBench.Failure(description: "speak was refused: \(response)")
            }
            let spoke = session.wait(timeout: 20, forState: "speaking") != nil
            let returned = session.wait(timeout: 20, forState: "listening") != nil
            Thread.sleep(forTimeInterval: 0.2)
            let samples = speaker.stop()
            let latency = firstLoud(samples).map { speaker.wall($0) - sent }
            slack.append(speaker.medianSlack)
            progress("speak round \(round): \(milliseconds(latency))")
            guard round > 0 else {
                notes.append("`speak` → first sound, \(label): the unrecorded first round (loading, connecting) took \(milliseconds(latency)).")
                continue
            }
            sample.add(latency, orMiss: "round \(round): no sound (speaking seen: \(spoke), listening again: \(returned))")
        }
        let spread = LatencySample("slack", values: slack)
        notes.append("Recording clock, \(label): a look at the growing speaker recording lay a median "
            + "\(String(format: "%.1f", spread.median * 1000)) ms above the best look (the offset used).")
        return sample
    }

    /// While a long reply plays, `stop` → the last loud sample in the speaker's monitor. The stop
    /// is sent while the speaker is sounding (its last 10 ms recorded were loud), not in a pause
    /// between words, which would make the silence look earlier than the stop took effect.
    static func stopToSilence(repeats: Int, notes: inout [String]) throws -> LatencySample {
        let session = try SpeechSession(daemonArguments: ["--stt", "none", "--tts", "embedded"], topics: ["state"])
        var sample = LatencySample("`stop` → speaker silent")
        for round in 0...repeats {
            let speaker = RecordingClock(try session.sound.record())
            Thread.sleep(forTimeInterval: 0.3)
            session.clearEvents()
            let response = try session.request(speakRequest(longReply))
            guard response["ok"] as? Bool == true else {
                throw LiveBench.Failure(description: "speak was refused: \(response)")
            }
            guard session.wait(timeout: 20, forState: "speaking") != nil else {
                throw LiveBench.Failure(description: "the long reply never started playing; the daemon's log:\n\(session.logTail)")
            }
            Thread.sleep(forTimeInterval: 1.0)
            if round == 1, let latency = try? speakerLatency(session.sound) {
                notes.append("The speaker sink while a reply plays: \(latency) (`pactl list sinks`).")
            }
            let deadline = RecordingClock.now() + 3
            while speaker.recentPeak(count: 160) <= loud, RecordingClock.now() < deadline { usleep(2_000) }
            let sent = RecordingClock.now()
            try session.request(#"{"id":"stop","cmd":"stop"}"#)
            let returned = session.wait(timeout: 5, forState: "listening") != nil
            Thread.sleep(forTimeInterval: 0.5)
            let samples = speaker.stop()
            let latency = lastLoud(samples).map { speaker.wall($0) - sent }
            progress("stop round \(round): \(milliseconds(latency)) (last sample above 1 LSB: "
                + "\(milliseconds(samples.lastIndex { $0 != 0 }.map { speaker.wall($0) - sent })))")
            guard round > 0 else { continue }
            sample.add(latency, orMiss: "round \(round): no sound (listening again: \(returned))")
        }
        return sample
    }

    /// While a long reply plays, the fixture is played into the microphone: the person's onset
    /// (first loud microphone sample after the reply began) → the speaker's last loud sample.
    /// A fresh daemon each round, as the interrupted turn goes on to transcription.
    static func bargeInToSilence(repeats: Int, notes: inout [String]) throws -> LatencySample {
        var sample = LatencySample("barge-in: person's onset → speaker silent")
        var apart: [Double] = []
        for round in 1...repeats {
            let session = try SpeechSession(
                daemonArguments: ["--stt", "embedded", "--tts", "embedded"], topics: ["state", "transcript"]
            )
            let speaker = RecordingClock(try session.sound.record())
            let microphone = RecordingClock(try session.sound.record(from: "mic"))
            Thread.sleep(forTimeInterval: 0.3)
            try session.request(speakRequest(longReply))
            guard session.wait(timeout: 20, forState: "speaking") != nil else {
                throw LiveBench.Failure(description: "the long reply never started playing; the daemon's log:\n\(session.logTail)")
            }
            Thread.sleep(forTimeInterval: 1.0)
            let player = try session.sound.play(fixture)
            _ = player.wait()
            Thread.sleep(forTimeInterval: 0.3)
            let spoken = speaker.stop()
            let heard = microphone.stop()
            apart.append(abs(speaker.offset - microphone.offset))
            guard let replyStart = firstLoud(spoken) else {
                sample.add(nil, orMiss: "round \(round): the reply made no sound")
                continue
            }
            let replyWall = speaker.wall(replyStart)
            guard let onset = heard.indices.first(where: { abs(heard[$0]) > loud && microphone.wall($0) > replyWall }) else {
                sample.add(nil, orMiss: "round \(round): no onset in the microphone")
                continue
            }
            let onsetWall = microphone.wall(onset)
            // Whether the reply was sounding in the 300 ms before the onset: if it was in a pause,
            // its last sound may precede the onset and say nothing about the barge-in.
            let before = spoken.indices.filter { index in
                let wall = speaker.wall(index)
                return wall > onsetWall - 0.3 && wall <= onsetWall
            }
            let sounding = before.contains { abs(spoken[$0]) > loud }
            let latency = lastLoud(spoken).map { speaker.wall($0) - onsetWall }
            progress("barge-in round \(round): \(milliseconds(latency))\(sounding ? "" : " (the reply was in a pause)")")
            guard sounding else {
                sample.add(nil, orMiss: "round \(round): the onset fell in a pause of the reply")
                continue
            }
            sample.add(latency, orMiss: "round \(round): no sound after the onset")
        }
        let spread = LatencySample("apart", values: apart)
        notes.append("Barge-in: the microphone and speaker recordings, started back to back, began "
            + "\(String(format: "%.1f", (spread.values.min() ?? .nan) * 1000))–"
            + "\(String(format: "%.1f", (spread.values.max() ?? .nan) * 1000)) ms apart; each is mapped to wall time by its own clock.")
        return sample
    }

    /// The `Latency:` line of the speaker sink, e.g. "Latency: 9850 usec, configured 10000 usec".
    static func speakerLatency(_ sound: PulseTestServer) throws -> String? {
        let listing = try sound.pactl("list", "sinks")
        let sinks = listing.components(separatedBy: "Sink #")
        let speaker = sinks.first { $0.contains("Name: speaker\n") }
        return speaker?.split(separator: "\n").first { $0.contains("Latency:") }?
            .trimmingCharacters(in: .whitespaces)
    }

    static func milliseconds(_ seconds: Double?) -> String {
        seconds.map { String(format: "%.0f ms", $0 * 1000) } ?? "–"
    }
}

// MARK: Transcription

extension SpeechBench {
    /// The fixture's two requests played into the microphone of a daemon transcribing with `stt`,
    /// each on its own (split in the middle of the pause between them) once the previous one's
    /// final has arrived: played whole, the second request begins 1.0 s after the first one's
    /// endpoint and discards its transcription if that is not done yet, as the Wyoming server's
    /// often is not, which would leave the slowest finals out of the figures.
    /// Per utterance, from the daemon's events: the end of speech in wall time is the `thinking`
    /// state's wall minus the audio time between the speech's end and that state (the 600 ms of
    /// silence that ends a turn); the latency runs from there to the final transcript's wall.
    /// One unrecorded round first: the first decoding warms the recogniser up.
    static func transcription(stt: String, label: String, repeats: Int, notes: inout [String]) throws -> [LatencySample] {
        let session = try SpeechSession(
            daemonArguments: ["--stt", stt, "--tts", "none"], topics: ["state", "speech", "transcript"]
        )
        var fromSpeech = LatencySample("end of speech → final transcript, \(label)")
        var fromEndpoint = LatencySample("endpoint (`thinking`) → final transcript, \(label)")
        var heard: [String: Int] = [:]
        let requests = try fixtureRequests(into: session.sound.directory)
        for round in 0...repeats {
            session.clearEvents()
            for (index, request) in requests.enumerated() {
                let player = try session.sound.play(request)
                _ = player.wait()
                let deadline = RecordingClock.now() + 10
                while finals(in: session.events).count <= index, RecordingClock.now() < deadline {
                    session.wait(timeout: deadline - RecordingClock.now()) { isFinal($0) }
                }
            }
            let utterances = turns(in: session.events)
            // The last request stays `thinking`, waiting for a reply that never comes.
            try session.request(#"{"id":"cancel","cmd":"cancel"}"#)
            Thread.sleep(forTimeInterval: 0.5)
            progress("\(label) round \(round): " + utterances.map { utterance in
                "\"\(utterance.text)\" \(milliseconds(utterance.fromSpeech)) (\(milliseconds(utterance.fromEndpoint)))"
            }.joined(separator: ", "))
            guard round > 0 else { continue }
            if utterances.count < 2 {
                fromSpeech.add(nil, orMiss: "round \(round): \(utterances.count) of 2 utterances complete")
            }
            for utterance in utterances {
                fromSpeech.add(utterance.fromSpeech, orMiss: "round \(round): turn \(utterance.turn) incomplete")
                fromEndpoint.add(utterance.fromEndpoint, orMiss: "round \(round): turn \(utterance.turn) incomplete")
                heard[utterance.text, default: 0] += 1
            }
        }
        notes.append("Finals, \(label): " + heard.sorted { $0.value > $1.value }
            .map { "\"\($0.key)\" ×\($0.value)" }.joined(separator: ", ") + ".")
        return [fromSpeech, fromEndpoint]
    }

    /// The fixture cut in two in the middle of its longest pause, written as WAV files to
    /// `directory`; returns their paths.
    static func fixtureRequests(into directory: String) throws -> [String] {
        let samples = try WAVFile.read(fixture).samples
        guard let first = firstLoud(samples), let last = lastLoud(samples) else {
            throw LiveBench.Failure(description: "\(fixture) is silent")
        }
        var longest = (start: first, count: 0)
        var runStart = first
        for index in first...last where abs(samples[index]) > loud {
            if index - runStart > longest.count { longest = (runStart, index - runStart) }
            runStart = index + 1
        }
        let cut = longest.start + longest.count / 2
        return try [samples[..<cut], samples[cut...]].enumerated().map { index, part in
            let path = "\(directory)/request-\(index + 1).wav"
            try WAVFile.write(AudioClip(samples: Array(part)), to: path)
            return path
        }
    }

    /// The utterances that got a final transcript, in turn order.
    static func turns(in events: [[String: Any]]) -> [TranscribedUtterance] {
        func turn(_ event: [String: Any]) -> Int? { (event["turn"] as? NSNumber)?.intValue }
        func number(_ event: [String: Any], _ key: String) -> Double? { (event[key] as? NSNumber)?.doubleValue }
        var speechEnds: [Int: Double] = [:]
        var thinking: [Int: (wall: Double, t: Double)] = [:]
        for event in events {
            guard let turn = turn(event) else { continue }
            if event["event"] as? String == "speech", event["phase"] as? String == "end", let t = number(event, "t") {
                speechEnds[turn] = t
            }
            if isState(event, "thinking"), thinking[turn] == nil, let wall = number(event, "wall"), let t = number(event, "t") {
                thinking[turn] = (wall, t)
            }
        }
        return finals(in: events).compactMap { final in
            guard let turn = turn(final) else { return nil }
            let finalWall = number(final, "wall")
            var utterance = TranscribedUtterance(turn: turn, text: final["text"] as? String ?? "")
            if let finalWall, let endpoint = thinking[turn] {
                utterance.fromEndpoint = finalWall - endpoint.wall
                if let end = speechEnds[turn] {
                    utterance.fromSpeech = finalWall - (endpoint.wall - (endpoint.t - end))
                }
            }
            return utterance
        }
    }

    static func finals(in events: [[String: Any]]) -> [[String: Any]] {
        events.filter(isFinal)
    }

    static func isFinal(_ event: [String: Any]) -> Bool {
        event["event"] as? String == "transcript" && event["final"] as? Bool == true
    }
}

/// One utterance of a transcription round and its latencies, in seconds.
struct TranscribedUtterance {
    var turn: Int
    var text: String
    /// End of speech → final transcript.
    var fromSpeech: Double?
    /// `thinking` state → final transcript.
    var fromEndpoint: Double?
}

/// The latencies measured for one row of a table, in seconds, and the repetitions that gave none.
struct LatencySample {
    var name: String
    var values: [Double] = []
    var misses: [String] = []

    init(_ name: String, values: [Double] = []) {
        self.name = name
        self.values = values
    }

    mutating func add(_ value: Double?, orMiss reason: @autoclosure () -> String) {
        if let value, value.isFinite {
            values.append(value)
        } else {
            misses.append(reason())
        }
    }

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    }

    /// Nearest rank: with 10 values p90 is the 9th smallest.
    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    /// `| name | n | median | p90 | min | max |`, in milliseconds.
    var tableRow: String {
        let ms = { (value: Double) in value.isNaN ? "–" : String(format: "%.0f", value * 1000) }
        let count = misses.isEmpty ? "\(values.count)" : "\(values.count) (\(misses.count) missed)"
        return "| \(name) | \(count) | \(ms(median)) | \(ms(percentile(0.9))) | "
            + "\(ms(values.min() ?? .nan)) | \(ms(values.max() ?? .nan)) |"
    }
}
