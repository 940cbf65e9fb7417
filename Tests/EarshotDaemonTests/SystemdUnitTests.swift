import EarshotProtocol
import EarshotTestSupport
import Foundation
import Testing

/// The user units in systemd/ as `make install` installs them: `systemd-analyze verify` finds
/// nothing to say about them.
@Suite(.enabled(if: TestPeers.program("/usr/bin/systemd-analyze"), "needs systemd-analyze (Debian's systemd package)"), .tags(.live))
struct SystemdUnitTests {
    static let analyze = "/usr/bin/systemd-analyze"
    static let units = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd")
    /// What the units name as the daemon; `make install` replaces it with the installed binary.
    static let shippedExecStart = "ExecStart=/usr/local/bin/earshotd"

    @Test func bothUnitsVerifyWithoutAWord() throws {
        let binary = try #require(DaemonProcess.binary, "earshotd is not built")
        let directory = NSTemporaryDirectory() + "earshot-units-" + UUID().uuidString.prefix(8)
        let runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let service = try String(contentsOf: Self.units.appendingPathComponent("earshotd.service"), encoding: .utf8)
        #expect(service.components(separatedBy: Self.shippedExecStart + "\n").count == 2, "one ExecStart= for make install to rewrite")
        try service.replacingOccurrences(of: Self.shippedExecStart, with: "ExecStart=\(binary.path)")
            .write(toFile: directory + "/earshotd.service", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.units.appendingPathComponent("earshotd.socket").path, toPath: directory + "/earshotd.socket")

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        let outputPath = directory + "/verify.txt"
        let status = try ChildProcess(
            Self.analyze, ["--user", "verify", directory + "/earshotd.socket", directory + "/earshotd.service"],
            environment: environment, outputPath: outputPath
        ).wait()
        let output = fileText(outputPath)
        #expect(status == 0)
        #expect(output.isEmpty, "systemd-analyze verify said:\n\(output)")
    }

    @Test func theSocketIsWhereTheDaemonAndTheCLILookByDefault() throws {
        let socket = try String(contentsOf: Self.units.appendingPathComponent("earshotd.socket"), encoding: .utf8)
        let listen = socket.split(separator: "\n").filter { $0.hasPrefix("ListenStream=") }
        try #require(listen.count == 1)
        // %t is $XDG_RUNTIME_DIR in a user unit.
        let path = listen[0].dropFirst("ListenStream=".count).replacingOccurrences(of: "%t", with: "/run/user/1000")
        #expect(path == SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]))
        #expect(socket.contains("\nSocketMode=0600\n"))
        #expect(socket.contains("\nDirectoryMode=0700\n"))
    }
}
