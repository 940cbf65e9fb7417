import EarshotProtocol
import EarshotServer
import EarshotTestSupport
import Foundation
import Glibc
import Testing

@Suite(.tags(.live)) struct ServerPeerCredentialTests {
    static let userName = "earshot-test"

    /// The test user's uid and gid, creating the user if it is missing.
    private func testUser() throws -> (uid: uid_t, gid: gid_t) {
        if getpwnam(Self.userName) == nil {
            let useradd = Process()
            useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
            useradd.arguments = ["--system", "--no-create-home", Self.userName]
            try useradd.run()
            useradd.waitUntilExit()
        }
        let entry = try #require(getpwnam(Self.userName), "could not create the user \(Self.userName)")
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Runs a client as `user` that connects to `path` and prints what it reads until the
    /// server closes the connection (perl: part of every Debian system, unlike python3).
    private func connect(as user: (uid: uid_t, gid: gid_t), to path: String) async throws -> (output: String, status: Int32) {
        let script = """
            use IO::Socket::UNIX; $SIG{ALRM} = sub { print "TIMEOUT\\n"; exit 3 }; alarm 10;
            my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0]) or do { print "CONNECT FAILED: $!\\n"; exit 2 };
            while (my $line = <$s>) { print $line } print "CLOSED\\n";
            """
        // ChildProcess, not Foundation's Process: the latter leaks itself on Linux (LeakSanitizer).
        let outputPath = NSTemporaryDirectory() + "earshot-peer-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).txt"
        defer { unlink(outputPath) }
        let arguments = ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "/usr/bin/perl", "-e", script, path]
        let status = try await onDedicatedThread {
            try ChildProcess("/usr/bin/setpriv", arguments, environment: [:], outputPath: outputPath).wait()
        }
        let text = fileText(outputPath)
        return (text, status)
    }

    @Test(.enabled(if: getuid() == 0 || TestPeers.requireAll, "needs root to run a client as another user"))
    func refusesAPeerRunningAsAnotherUser() async throws {
        let user = try testUser()
        try await ServerHarness.withServer { server, path in
            // Open the way to the socket for the other user, for this test only: the directory
            // is 0700 and the socket 0600, which would stop it before the server ever saw it.
            // With them opened up, the SO_PEERCRED check is the only thing that can refuse it.
            let directory = String(path[..<path.lastIndex(of: "/")!])
            let testRoot = String(directory[..<directory.lastIndex(of: "/")!])
            chmod(testRoot, 0o711)
            chmod(directory, 0o711)
            chmod(path, 0o666)

            let (output, status) = try await connect(as: user, to: path)
            let lines = output.split(separator: "\n").map(String.init)
            #expect(status == 0, "the client said: \(output)")
            #expect(lines.count == 2, "one error line, then the server closed: \(output)")
            let response = try Response(jsonLine: Array((lines.first ?? "").utf8))
            #expect(response.id == .null)
            guard case .failure(let error) = response.result else {
                Issue.record("expected permission_denied, got \(output)")
                return
            }
            #expect(error.code == "permission_denied")
            #expect(lines.last == "CLOSED")
            #expect(server.counters.clients == 0)

            // The owner still gets in.
            let owner = try SocketTestClient(path: path)
            #expect(try await owner.request(#"{"id":1,"cmd":"status"}"#)["ok"] == true)
        }
    }
}
