import EarshotRecordings
import Foundation
import Testing

/// The recordings directory on a real file system: private modes, valid Ogg Opus, JSON details,
/// and deletion that never reaches a file the daemon did not make.
@Suite struct RecordingStoreTests {
    static let turn = RecordedTurn(run: "20261121T203000123", turn: 3)

    static func scratch() throws -> String {
        let directory = NSTemporaryDirectory() + "earshot-recordings-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func mode(_ path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    /// `seconds` of a 220 Hz tone at half scale, 16 kHz.
    static func tone(seconds: Double) -> [Int16] {
        (0..<Int(seconds * 16_000)).map { Int16(16_000 * sin(2 * Double.pi * 220 * Double($0) / 16_000)) }
    }

    @Test func aMissingDirectoryIsCreatedPrivateAllTheWayDown() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = RecordingStore(directory: root + "/state/earshot/recordings")
        #expect(try store.inventory().names.isEmpty, "a directory that is not there holds no recordings")
        #expect(!FileManager.default.fileExists(atPath: root + "/state"), "listing created nothing")
        try store.prepareDirectory()
        for path in ["/state", "/state/earshot", "/state/earshot/recordings"] {
            #expect(Self.mode(root + path) == 0o700, "\(path)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.directory)
        try store.prepareDirectory()
        #expect(Self.mode(store.directory) == 0o700, "an existing recordings directory is made private again")
    }

    @Test func aTurnIsWrittenAsPrivateOggOpusAndJSON() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = RecordingStore(directory: root + "/recordings")
        try store.prepareDirectory()
        let samples = Self.tone(seconds: 1.5)
        try store.writeAudio(samples + [0, 0, 0], count: samples.count, for: Self.turn)
        var details = RecordedTurnDetails(turn: Self.turn, startedAt: 1_795_293_000.5, audioStart: 12.3, audioEnd: 13.8)
        try store.writeDetails(details)

        let audio = store.path(of: RecordingName(turn: Self.turn, kind: .audio))
        let json = store.path(of: RecordingName(turn: Self.turn, kind: .details))
        #expect(Self.mode(audio) == 0o600)
        #expect(Self.mode(json) == 0o600)
        let decoded = try OpusFile.read(audio)
        #expect(abs(Double(decoded.samples.count) / 16_000 - 1.5) < 0.01, "\(decoded.samples.count) samples")
        let rms = (decoded.samples.reduce(0) { $0 + Double($1 * $1) } / Double(decoded.samples.count)).squareRoot()
        #expect(abs(rms - 0.3453) < 0.03, "the tone survives encoding (RMS \(rms))")
        #expect(try String(contentsOfFile: json, encoding: .utf8) == """
            {"turn":3,"run":"20261121T203000123","audio":"earshot-20261121T203000123-turn000003.opus","started":"2026-11-21T20:30:00.500Z","audio_start":12.30,"audio_end":13.80,"duration":1.50,"transcript":null,"reply":null,"truncated":false}

            """)

        details.transcript = "turn on the \"kitchen\" lights"
        details.reply = "Done."
        try store.writeDetails(details)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        #expect(object?["transcript"] as? String == "turn on the \"kitchen\" lights")
        #expect(object?["reply"] as? String == "Done.")
        #expect(Self.mode(json) == 0o600)
        #expect(try store.inventory().names == [RecordingName(turn: Self.turn, kind: .audio), RecordingName(turn: Self.turn, kind: .details)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted() == [
            "earshot-20261121T203000123-turn000003.json", "earshot-20261121T203000123-turn000003.opus",
        ], "no partial file is left behind")
    }

    @Test func forgettingDeletesTheRecordingsAndNothingElse() throws {
        let root = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = RecordingStore(directory: root + "/recordings")
        try store.prepareDirectory()
        for turn in 1...2 {
            let recorded = RecordedTurn(run: "20261121T203000123", turn: turn)
            try store.writeAudio(Self.tone(seconds: 0.2), count: 3200, for: recorded)
            try store.writeDetails(RecordedTurnDetails(turn: recorded, startedAt: 0, audioStart: 0, audioEnd: 0.2))
        }
        let leftover = store.directory + "/earshot-20261120T090000000-turn000009.opus.partial"
        try Data([1]).write(to: URL(fileURLWithPath: leftover))
        let unrelated = ["notes.txt", "earshot-20261121T203000123-turn000001.wav", "earshot-20261121T203000123-turn01.opus"]
        for name in unrelated { try Data("keep".utf8).write(to: URL(fileURLWithPath: store.directory + "/" + name)) }
        let lookalikeDirectory = store.directory + "/earshot-20261121T203000123-turn000005.json"
        try FileManager.default.createDirectory(atPath: lookalikeDirectory, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: store.directory + "/earshot-20261121T203000123-turn000006.opus", withDestinationPath: root + "/elsewhere.opus")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: root + "/elsewhere.opus"))

        let found = try store.inventory()
        #expect(found.names.count == 5)
        #expect(found.turns.count == 3)
        let deleted = try store.forgetAll()
        #expect(deleted == found)
        #expect(try store.inventory().names.isEmpty)
        let remaining = try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        #expect(remaining == (unrelated + ["earshot-20261121T203000123-turn000005.json", "earshot-20261121T203000123-turn000006.opus"]).sorted())
        #expect(FileManager.default.fileExists(atPath: root + "/elsewhere.opus"))
    }

    @Test func theDefaultDirectoryFollowsXDGStateHome() {
        #expect(RecordingLocation.defaultDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/earshot/recordings")
        #expect(RecordingLocation.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/earshot/recordings")
        #expect(RecordingLocation.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/earshot/recordings")
    }
}
