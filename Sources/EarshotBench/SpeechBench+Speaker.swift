import EarshotTestSupport
import Foundation

extension SpeechBench {
    /// Sending `speak` (a short sentence, while listening) → its first loud sample in the speaker's
    /// monitor. One unrecorded round first: the first synthesis loads the voice.
    static func speakToSound(repeats: Int, notes: inout [String]) throws -> LatencySample {
        let session = try SpeechSession(daemonArguments: ["--stt", "none", "--tts", "embedded"], topics: ["state"])
        var sample = LatencySample("`speak` → first sound at the speaker")
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
                notes.append("`speak` → first sound: the unrecorded first round (voice loading) took \(milliseconds(latency)).")
                continue
            }
            sample.add(latency, orMiss: "round \(round): no sound (speaking seen: \(spoke), listening again: \(returned))")
        }
        let spread = LatencySample("slack", values: slack)
        notes.append("Recording clock: a look at the growing speaker recording lay a median "
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
