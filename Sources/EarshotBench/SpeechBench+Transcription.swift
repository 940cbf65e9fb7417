import EarshotAudio
import EarshotTestSupport
import Foundation

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
