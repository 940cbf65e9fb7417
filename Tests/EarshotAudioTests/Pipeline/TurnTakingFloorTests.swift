import EarshotAudio
import EarshotConversation
import Foundation
import Testing

/// The endpointer's figures on the turn-taking dev set, as its own scorer gives them, may not fall
/// below those it had when this test was written (default settings, `earshot replay`'s output).
/// The copied scenes (`Tests/Fixtures/turns`) are scored everywhere; the whole set as well where
/// the shared folder is beside the checkout.
@Suite struct TurnTakingFloorTests {
    /// What a run of the scorer must at least show.
    struct Floor: CustomTestStringConvertible, Sendable {
        let name: String
        let directory: URL
        let turns: Int
        let good: Int
        let shortTurns: Int
        let thinkingTurns: Int
        /// End-of-turn latency after the person stopped, median and p90, in seconds.
        let medianEndOfTurn: Double
        let p90EndOfTurn: Double

        var testDescription: String { name }
    }

    static let copied = Floor(
        name: "the copied scenes", directory: Fixture.directory.appendingPathComponent("turns"),
        turns: 15, good: 14, shortTurns: 4, thinkingTurns: 5, medianEndOfTurn: 0.68, p90EndOfTurn: 0.74
    )
    static let wholeSet = Floor(
        name: "the whole turns-dev set",
        directory: Fixture.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/turns-dev"),
        turns: 46, good: 45, shortTurns: 12, thinkingTurns: 15, medianEndOfTurn: 0.68, p90EndOfTurn: 0.78
    )
    /// The copied scenes always; the whole set where this machine has it.
    static let floors = [copied] + (FileManager.default.fileExists(atPath: wholeSet.directory.path) ? [wholeSet] : [])

    @Test(arguments: floors)
    func theScorerFindsNoFigureBelowItsFloor(_ floor: Floor) throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-turns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        let recordings = try FileManager.default.contentsOfDirectory(atPath: floor.directory.path).filter { $0.hasSuffix(".wav") }.sorted()
        #expect(recordings.count >= 4)
        for name in recordings {
            let clip = try WAVFile.read(floor.directory.appendingPathComponent(name).path)
            try Data(Self.replay(clip)).write(to: logs.appendingPathComponent(name.replacingOccurrences(of: ".wav", with: ".jsonl")))
        }
        let overall = try Self.score(set: floor.directory, logs: logs)
        let figures = overall.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", ")
        #expect(overall["turns"] as? Int == floor.turns, "\(figures)")
        #expect((overall["good"] as? Int ?? 0) >= floor.good, "\(figures)")
        #expect(overall["false"] as? Int == 0, "a desk sound or the noise opened a turn: \(figures)")
        #expect(overall["distractors_triggered"] as? Int ?? 1 <= 1, "\(figures)")
        #expect(overall["splits"] as? Int == 0, "a turn was split at a thinking pause: \(figures)")
        #expect(overall["other_splits"] as? Int == 0, "\(figures)")
        #expect(overall["merged"] as? Int == 0, "\(figures)")
        #expect(overall["thinking_turns"] as? Int == floor.thinkingTurns, "\(figures)")
        #expect(overall["short_detected"] as? Int == floor.shortTurns, "\(figures)")
        #expect((overall["eot_median"] as? Double ?? 9) <= floor.medianEndOfTurn + 0.005, "\(figures)")
        #expect((overall["eot_p90"] as? Double ?? 9) <= floor.p90EndOfTurn + 0.005, "\(figures)")
    }

    /// What `earshot replay FILE` prints, with the default settings.
    static func replay(_ clip: AudioClip) -> [UInt8] {
        var replay = Replay(detector: SpectralVAD(), configuration: .init(emitsLevels: false, transcribes: false))
        var output: [UInt8] = []
        replay.run(clip) { output += $0 }
        return output
    }

    /// The scorer's `overall` figures for the logs in `logs`.
    static func score(set: URL, logs: URL) throws -> [String: Any] {
        let result = logs.appendingPathComponent("score.json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Fixture.directory.appendingPathComponent("turns/score_turns.py").path,
            set.path, logs.path, "--json", result.path, "--no-details",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "the scorer failed (python3 and Tests/Fixtures/turns/score_turns.py are needed)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: result)) as? [String: Any]
        let run = try #require(json?.values.first as? [String: Any])
        return try #require(run["overall"] as? [String: Any])
    }
}
