import EarshotTestSupport
import Foundation
import Testing

/// `earshot replay --stt`, as a person runs it.
@Suite(.tags(.live)) struct TranscribedReplayCLITests {
    static let file = TestFixtures.path("speech/two_requests_slt.wav")

    static func finals(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.contains(#""event":"transcript""#) && $0.contains(#""final":true"#) }.map(String.init)
    }

    @Test func embeddedTranscriptionPrintsEachUtterancesWordsAndIsRepeatable() throws {
        let first = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.file])
        let second = try BuiltProduct.run("earshot", ["replay", "--stt", "embedded", Self.file])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.finals(first.stdoutText) == [
            #"{"event":"transcript","turn":1,"final":true,"text":"turn on the kitchen lights","t":2.68}"#,
            #"{"event":"transcript","turn":2,"final":true,"text":"what is the weather like tomorrow","t":6.40}"#,
        ])
        #expect(first.stdoutText.contains(#""event":"transcript","turn":1,"final":false"#), "partials while speaking")
        #expect(first.stdout == second.stdout)
    }

    @Test func withoutATranscriberThereAreNoTranscripts() throws {
        let result = try BuiltProduct.run("earshot", ["replay", Self.file])
        #expect(result.status == 0)
        #expect(!result.stdoutText.contains("transcript"))
        #expect(result.stdoutText.contains(#""phase":"end","turn":2"#))
    }

    @Test func anUnreachableWyomingServerIsReportedAndTheReplayGoesOn() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--stt", "tcp://127.0.0.1:9", Self.file])
        #expect(result.status == 0, "\(result.stderr)")
        let errors = result.stdoutText.split(separator: "\n").filter { $0.contains(#""event":"error""#) }
        #expect(errors.count == 2, "one error per utterance: \(errors)")
        #expect(errors.first?.contains("127.0.0.1:9") == true)
        #expect(result.stdoutText.contains(#""state":"listening","turn":2"#))
    }

    @Test func aBadBackendNameSaysWhatWouldDo() throws {
        let result = try BuiltProduct.run("earshot", ["replay", "--stt", "whisper", Self.file])
        #expect(result.status != 0)
        #expect(result.stderr.contains("embedded, none, tcp://HOST:PORT, unix:///PATH or openai+http://HOST:PORT/v1"))
    }
}
