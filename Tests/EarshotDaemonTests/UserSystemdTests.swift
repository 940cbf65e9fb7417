import EarshotTestSupport
import Foundation
import Testing

/// The units in systemd/ run by a real `systemd --user` (see ``PrivateUserManager``), sandboxing
/// and all: socket activation, readiness and status, the watchdog restarting a daemon whose
/// capture is stuck, a clean stop. Runs where such a manager can be had (as root, on a machine
/// not booted with systemd); ``SystemdActivationTests`` covers the protocol everywhere else.
@Suite(.serialized, .enabled(if: PrivateUserManager.isPossible || TestPeers.requireAll, "needs root on a machine not booted with systemd, unshare and systemd installed"), .tags(.live))
struct UserSystemdTests {
    static let socket = PrivateUserManager.runtimeDirectory + "/earshot/earshot.sock"

    /// The units as `make install` installs them, and a drop-in that makes the watchdog quick
    /// and keeps the daemon's output (there is no journal here).
    static func units() throws -> [String: String] {
        let service = try String(contentsOf: SystemdUnitTests.units.appendingPathComponent("earshotd.service"), encoding: .utf8)
        return [
            "earshotd.service": service.replacingOccurrences(
                of: SystemdUnitTests.shippedExecStart, with: "ExecStart=\(PrivateUserManager.prefix)/bin/earshotd --verbose"
            ),
            "earshotd.socket": try String(contentsOf: SystemdUnitTests.units.appendingPathComponent("earshotd.socket"), encoding: .utf8),
            "earshotd.service.d/test.conf": """
                [Service]
                WatchdogSec=2
                RestartSec=1
                StandardOutput=append:\(PrivateUserManager.runtimeDirectory)/earshotd.log

                """,
        ]
    }

    @Test func socketActivatedWatchedAndRestartedWhenCaptureIsStuck() throws {
        let earshotd = try #require(DaemonProcess.binary, "earshotd is not built")
        // Installed as `make install` would, so the sandboxed daemon finds its voices in
        // ../share/earshot/voices wherever the checkout is.
        let voices = SystemdUnitTests.units.deletingLastPathComponent().appendingPathComponent("voices").path
        let systemd = try PrivateUserManager(
            units: Self.units(), installing: ["bin/earshotd": earshotd.path, "share/earshot/voices": voices]
        )
        defer { systemd.stop() }
        let earshot = try #require(BuiltProduct.url("earshot"), "earshot is not built").path
        let log = { systemd.run("/bin/cat", PrivateUserManager.runtimeDirectory + "/earshotd.log").output }

        #expect(systemd.run("/usr/bin/systemctl", "--user", "start", "earshotd.socket").status == 0)
        #expect(systemd.property("ActiveState", of: "earshotd.service") == "inactive")
        // The first connection starts the daemon, which answers it on the passed socket.
        let status = systemd.run(earshot, "status", "--json", "--socket", Self.socket)
        #expect(status.status == 0, "earshot status: \(status.output)\nearshotd's log:\n\(log())")
        let idle = "idle (voice mode off); socket \(Self.socket)"
        #expect(systemd.wait(for: "StatusText", of: "earshotd.service", timeout: .seconds(10)) { $0 == idle } == idle, "earshotd's log:\n\(log())")
        // The status line can reach systemd before READY=1 (the audio still connecting): wait for it.
        #expect(systemd.wait(for: "ActiveState", of: "earshotd.service", timeout: .seconds(10)) { $0 == "active" } == "active")
        let firstPid = systemd.property("MainPID", of: "earshotd.service")

        #expect(systemd.run(earshot, "start", "--socket", Self.socket).status == 0)
        #expect(systemd.wait(for: "StatusText", of: "earshotd.service", timeout: .seconds(5)) { $0 == "listening on mic" } == "listening on mic")
        let keptAlive = systemd.property("WatchdogTimestampMonotonic", of: "earshotd.service")
        #expect(systemd.wait(for: "WatchdogTimestampMonotonic", of: "earshotd.service", timeout: .seconds(3)) { $0 != keptAlive } != keptAlive)

        // A frozen sound server: connected, no frames. Keep-alives stop and systemd restarts it:
        // stuck after 2 s, killed 2 s after the last keep-alive, started again 1 s later.
        let pulse = try #require(systemd.pulseAudioPid)
        kill(pulse, SIGSTOP)
        let restarts = systemd.wait(for: "NRestarts", of: "earshotd.service", timeout: .seconds(8)) { $0 == "1" }
        kill(pulse, SIGCONT)
        #expect(restarts == "1", "earshotd's log:\n\(log())")
        #expect(log().contains("the audio loop is stuck"))
        #expect(systemd.wait(for: "StatusText", of: "earshotd.service", timeout: .seconds(10)) { $0 == idle } == idle)
        #expect(systemd.property("MainPID", of: "earshotd.service") != firstPid)

        #expect(systemd.run("/usr/bin/systemctl", "--user", "stop", "earshotd.service").status == 0)
        #expect(systemd.property("StatusText", of: "earshotd.service") == "stopping")
        #expect(systemd.property("Result", of: "earshotd.service") == "success")
        // The socket stays with systemd, ready to start the daemon again.
        #expect(systemd.run("/usr/bin/test", "-S", Self.socket).status == 0)
    }
}
