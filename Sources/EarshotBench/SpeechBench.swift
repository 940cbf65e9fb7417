import EarshotTestSupport
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
        try timed("speak") { rows.append(try speakToSound(repeats: repeats, notes: &notes)) }
        try timed("stop") { rows.append(try stopToSilence(repeats: repeats, notes: &notes)) }
        try timed("barge-in") { rows.append(try bargeInToSilence(repeats: repeats, notes: &notes)) }
        try timed("embedded STT") {
            rows += try transcription(stt: "embedded", label: "embedded (pocketsphinx)", repeats: repeats, notes: &notes)
        }
        if WyomingServerProcess.isAvailable {
            try timed("Wyoming STT") { rows += try wyomingTranscription(repeats: repeats, notes: &notes) }
        } else {
            notes.append("Wyoming STT rows skipped: the Wyoming servers are not installed in "
                + "\(WyomingServerProcess.venvPath) (run `make peers`).")
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
        let server = try WyomingServerProcess(.speechToText)
        ChildGuard.register(server.pid)
        defer {
            let pid = server.pid
            server.stop()
            ChildGuard.unregister(pid)
        }
        return try transcription(
            stt: server.uri, label: "Wyoming (wyoming-ovos-stt, pocketsphinx)", repeats: repeats, notes: &notes
        )
    }

    static func timed(_ label: String, _ body: () throws -> Void) rethrows {
        let start = RecordingClock.now()
        try body()
        progress("\(label) measured in \(String(format: "%.0f", RecordingClock.now() - start)) s")
    }

    /// Progress goes to stderr, so that stdout holds only the table.
    static func progress(_ line: String) {
        FileHandle.standardError.write(Data(("earshot-bench speech: " + line + "\n").utf8))
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
