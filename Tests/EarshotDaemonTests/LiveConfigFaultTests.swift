import EarshotTestSupport
import Foundation
import Testing

/// The configuration file replaced, while the daemon runs, by a directory, by binary junk and by a
/// 100 MB file, each followed by SIGHUP: every one is refused in words (`config_invalid`), the
/// daemon goes on answering, and the huge file is not read.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveConfigFaultTests {
    struct Run: Sendable {
        var messages: [String]
        var answeredAfter: Bool
        var residentMegabytes: Int?
    }

    static func replaceAndReload() throws -> Run {
        let directory = try LiveConfigTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try "[listening]\nend_silence_ms = 700\n".write(toFile: path, atomically: true, encoding: .utf8)
        let session = try LiveSession(arguments: ["--listen", "--config", path])
        let client = try session.subscribedClient(topics: ["error"])
        var messages: [String] = []
        let replacements: [() throws -> Void] = [
            {
                try FileManager.default.removeItem(atPath: path)
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            },
            {
                try FileManager.default.removeItem(atPath: path)
                var generator = SeededGenerator(seed: 5)
                try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0xC0, 0x80]).write(to: URL(fileURLWithPath: path))
            },
            { try Data(repeating: UInt8(ascii: "a"), count: 100_000_000).write(to: URL(fileURLWithPath: path)) },
        ]
        for replace in replacements {
            try replace()
            kill(session.daemon.pid, SIGHUP)
            let events = client.events(timeout: 10) { $0["code"] as? String == "config_invalid" }
            messages.append(events.last { $0["code"] as? String == "config_invalid" }?["message"] as? String ?? "no config_invalid event")
        }
        let status = try session.status()
        return Run(
            messages: messages, answeredAfter: status["ok"] as? Bool == true,
            residentMegabytes: ProcessTable.residentKilobytes(of: session.daemon.pid).map { $0 / 1024 }
        )
    }

    @Test func aDirectoryJunkAndAHugeFileAreRefusedAndTheDaemonGoesOn() async throws {
        let run = try await onDedicatedThread { try Self.replaceAndReload() }
        #expect(run.messages.count == 3)
        #expect(run.messages[0].contains("cannot read the configuration file: it is a directory, not a file"), "\(run.messages[0])")
        #expect(run.messages[1].contains("cannot read the configuration file: it is not UTF-8 text"), "\(run.messages[1])")
        #expect(run.messages[2].contains("is at most 1024 KiB: is it the right file?"), "\(run.messages[2])")
        #expect(run.messages.allSatisfy { $0.hasPrefix("The configuration file was not reloaded; the settings stay as they were.") })
        #expect(run.answeredAfter)
        // Reading the 100 MB file would have grown the daemon by hundreds of megabytes (620 MB seen before the limit).
        #expect((run.residentMegabytes ?? .max) < 100, "RSS \(String(describing: run.residentMegabytes)) MB")
    }
}
