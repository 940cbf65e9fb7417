import EarshotTestSupport
import Foundation
import Testing

extension LivePrivacyTests {
    struct EarlierRecordings: Sendable {
        var recordedEarlier: [String]
        var status: [String: String]
        var statusText: String
        var unconfirmedCLI: (status: Int32, stdout: String, stderr: String)
        var namesAfterUnconfirmed: [String]
        var confirmedCLI: (status: Int32, stdout: String, stderr: String)
        var namesAfterForget: [String]
        var againCLI: (status: Int32, stdout: String, stderr: String)
        var unrelated: [String]
        var directory: String
    }

    /// A run with `--debug-turns` records a turn; the next run, with recording off, is asked to
    /// forget through the CLI.
    static func forgetWhatAnEarlierRunRecorded() throws -> EarlierRecordings {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let home = try PrivateHome()
        let directory = home.recordings
        let recording = try home.startDaemon(sound, ["--listen", "--stt", "none", "--tts", "none", "--debug-turns", "3"], log: "recording")
        _ = try oneTurn(sound, try subscribe(home.socketPath), replied: false)
        // Stopping writes what is still queued.
        _ = recording.terminate()
        let recordedEarlier = recordingNames(directory)
        for name in unrelatedFiles { try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/" + name)) }

        let daemon = try home.startDaemon(sound, ["--stt", "none", "--tts", "none"])
        defer { _ = daemon.terminate() }
        let status = strings(try request(home.socketPath, #"{"id":1,"cmd":"status"}"#)["recording"] as? [String: Any] ?? [:])
        let statusText = try home.earshot(sound, ["status"]).stdout
        let unconfirmed = try home.earshot(sound, ["forget"])
        let namesAfterUnconfirmed = recordingNames(directory)
        let confirmed = try home.earshot(sound, ["forget", "--yes"])
        let namesAfterForget = recordingNames(directory)
        let again = try home.earshot(sound, ["forget", "--yes"])
        return EarlierRecordings(
            recordedEarlier: recordedEarlier, status: status, statusText: statusText, unconfirmedCLI: unconfirmed,
            namesAfterUnconfirmed: namesAfterUnconfirmed, confirmedCLI: confirmed, namesAfterForget: namesAfterForget,
            againCLI: again, unrelated: unrelatedFiles.filter { FileManager.default.fileExists(atPath: directory + "/" + $0) },
            directory: directory
        )
    }

    @Test func forgetDeletesAnEarlierRunsRecordingsWithRecordingOff() async throws {
        let run = try await onDedicatedThread { try Self.forgetWhatAnEarlierRunRecorded() }
        #expect(run.recordedEarlier.count == 2, "one turn: its audio and its details: \(run.recordedEarlier)")
        #expect(run.status == ["debug_turns": "0", "directory": run.directory, "kept": "1"])
        #expect(run.statusText.contains("recording off · 1 turn recorded earlier in \(run.directory) (earshot forget deletes them)"), "\(run.statusText)")

        // Without --yes and with no terminal to ask on: the daemon's answer, nothing deleted.
        #expect(run.unconfirmedCLI.status == 1)
        #expect(run.unconfirmedCLI.stderr == "This deletes every recording earshotd made: 2 files (1 recorded turn) in \(run.directory). To go ahead, send {\"cmd\":\"forget\",\"confirm\":true} (or run `earshot forget --yes`).\n")
        #expect(run.namesAfterUnconfirmed == run.recordedEarlier)

        #expect(run.confirmedCLI.status == 0, "\(run.confirmedCLI.stderr)")
        #expect(run.confirmedCLI.stdout == "Deleted 2 files (1 recorded turn) from \(run.directory).\n")
        #expect(run.namesAfterForget.isEmpty)
        #expect(run.unrelated == Self.unrelatedFiles)
        #expect(run.againCLI.stdout == "There were no recordings to delete in \(run.directory).\n")
    }
}
