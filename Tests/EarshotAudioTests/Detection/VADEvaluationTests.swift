@testable import EarshotAudio
import Foundation
import Testing

@Suite struct VADEvaluationTests {
    @Test func readsALabelledSet() throws {
        let set = try LabelledSpeechSet(directory: VADTestSupport.fixtureDirectory)
        #expect(set.recordings.map(\.file).sorted() == ["dev_s05_babble_snr10.wav", "dev_s07_clean.wav"])
        let babble = try #require(set.recordings.first { $0.noise == "babble" })
        #expect(babble.condition == "10 dB")
        #expect(babble.labels.count == 1_709)
        #expect(babble.labels.filter { $0 }.count == 725)
        #expect(set.recordings.first { $0.noise == "clean" }?.condition == "clean")
    }

    @Test func refusesADirectoryWithoutAManifest() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-vad-empty-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try LabelledSpeechSet(directory: directory.path)
        } throws: { error in
            (error as? LabelledSpeechSet.LoadError)?.description.contains("manifest.csv") == true
        }
    }

    @Test func groupsByConditionAndNoise() throws {
        let set = try LabelledSpeechSet(directory: VADTestSupport.fixtureDirectory)
        let evaluation = try VADEvaluation.run({ SpectralVAD() }, on: set)
        #expect(evaluation.byCondition.map(\.name) == ["clean", "10 dB"])
        #expect(evaluation.byNoise.map(\.name) == ["clean", "babble"])
        #expect(evaluation.overall.frames == 1_709 + 2_023)
        #expect(evaluation.realTimeFactor > 0)
    }
}
