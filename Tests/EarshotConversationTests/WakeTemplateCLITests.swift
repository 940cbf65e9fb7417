import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

/// `earshot wake enroll` and `earshot replay --wake-templates`, as a person runs them: the built
/// binary, takes made from the fixture's "hey computer" (flite slt).
@Suite(.tags(.live)) struct WakeTemplateCLITests {
    static let recording = ConversationFixture.path("speech/wake_request_slt.wav")

    /// Writes three takes of the phrase (slower, faster, softer) and one of other words into a
    /// new directory; returns it.
    static func takes() throws -> String {
        let directory = try ResponderHarness.temporaryDirectory().path
        let samples = try WAVFile.read(recording).samples
        let phrase = Array(samples[16_000..<Int(1.76 * 16_000)])
        let quiet = [Float](repeating: 0, count: 8_000)
        for (index, take) in [(1.06, Float(1)), (0.95, 1), (1.02, 0.5)].enumerated() {
            let said = Resampler.resample(phrase, from: 16_000, to: Int(16_000 * take.0)).map { $0 * take.1 }
            try WAVFile.write(AudioClip(samples: quiet + said + quiet), to: "\(directory)/take\(index + 1).wav")
        }
        let other = Array(samples[Int(1.98 * 16_000)..<Int(3.4 * 16_000)])
        try WAVFile.write(AudioClip(samples: quiet + other + quiet), to: "\(directory)/other.wav")
        return directory
    }

    @Test func enrolledTakesWakeItAtThePhraseIdenticallyTwiceAndNotOnOtherSpeech() throws {
        let directory = try Self.takes()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let enrolled = try BuiltProduct.run("earshot", ["wake", "enroll", "--to", directory + "/wake"] + (1...3).map { "\(directory)/take\($0).wav" })
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdoutText.contains("enrolled 3 takes in \(directory)/wake"), "\(enrolled.stdoutText)")

        let arguments = ["replay", "--wake-templates", directory + "/wake", "--wake", "hey computer", Self.recording]
        let first = try BuiltProduct.run("earshot", arguments)
        let second = try BuiltProduct.run("earshot", arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let events = LoggedEvent.all(in: first.stdoutText)
        let wake = try #require(events.first { $0.event == "wake" }, "\(first.stdoutText)")
        #expect(wake.fields["phrase"] as? String == "hey computer")
        #expect(wake.t > 1.6 && wake.t < 2.1, "decided as the phrase ends (1.73 s): \(wake.t)")
        let start = try #require(events.first { $0.event == "speech" && $0.fields["phase"] as? String == "start" })
        #expect((start.fields["audio_start"] as? Double ?? 0) >= wake.t - 0.005, "the request's audio starts after the phrase")

        let other = try BuiltProduct.run("earshot", ["replay", "--wake-templates", directory + "/wake", ConversationFixture.path("speech/two_requests_slt.wav")])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(!other.stdoutText.contains(#""event":"wake""#))
        #expect(other.stdoutText.contains(#""waiting_for":"wake""#), "named after the directory")
    }

    @Test func takesThatCannotMakeTemplatesAreRefusedInWords() throws {
        let directory = try Self.takes()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let two = try BuiltProduct.run("earshot", ["wake", "enroll", "--to", directory + "/wake", directory + "/take1.wav", directory + "/take2.wav"])
        #expect(two.status != 0)
        #expect(two.stderr.contains("Give at least 3 recordings of the phrase"), "\(two.stderr)")
        let unlike = try BuiltProduct.run("earshot", ["wake", "enroll", "--to", directory + "/wake"] + ["take1", "other", "take2", "take3"].map { "\(directory)/\($0).wav" })
        #expect(unlike.status == 2)
        #expect(unlike.stderr.contains("\(directory)/other.wav does not sound like the other takes"), "\(unlike.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/wake"), "nothing written")
        let missing = try BuiltProduct.run("earshot", ["replay", "--wake-templates", directory + "/nowhere", Self.recording])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--wake-templates: the wake templates directory \(directory)/nowhere does not exist"), "\(missing.stderr)")
    }
}
