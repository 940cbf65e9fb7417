import EarshotAudio
import EarshotTestSupport
import Foundation
import Testing

/// `earshot replay` given a recording's pieces replays them as the one recording they were cut
/// from (what `make soak` checks on an hour of audio).
@Suite(.tags(.live)) struct ReplayInPiecesCLITests {
    @Test func piecesCutInsideFramesPrintWhatTheWholeRecordingPrints() throws {
        let whole = TestFixtures.path("speech/two_requests_slt.wav")
        let samples = try WAVFile.read(TestFixtures.path("speech/two_requests_slt.wav")).samples
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-pieces-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Cuts inside 10 ms frames (160 samples), one inside the first request.
        let cuts = [0, 12_345, 33_333, 70_001, samples.count]
        var pieces: [String] = []
        for index in 0..<(cuts.count - 1) {
            let path = directory + "/piece\(index).wav"
            try WAVFile.write(AudioClip(samples: Array(samples[cuts[index]..<cuts[index + 1]])), to: path)
            pieces.append(path)
        }
        let expected = try ReplayCLITests.run(["replay", "--levels", "--level-hz", "60", whole])
        let inPieces = try ReplayCLITests.run(["replay", "--levels", "--level-hz", "60"] + pieces)
        #expect(expected.status == 0)
        #expect(inPieces.status == 0, "\(inPieces.stderr)")
        #expect(String(decoding: expected.stdout, as: UTF8.self).contains(#""state":"thinking","turn":2"#))
        #expect(inPieces.stdout == expected.stdout)
        // In another order they are another recording.
        let shuffled = try ReplayCLITests.run(["replay", "--levels", "--level-hz", "60"] + pieces.reversed())
        #expect(shuffled.stdout != expected.stdout)
    }

    @Test func aMissingPieceIsNamedAndNothingIsReplayed() throws {
        let result = try ReplayCLITests.run(["replay", TestFixtures.path("speech/one_request_slt.wav"), "/nonexistent/piece2.wav"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("/nonexistent/piece2.wav"))
    }

    @Test func noRecordingIsRefused() throws {
        let result = try ReplayCLITests.run(["replay"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
    }
}
