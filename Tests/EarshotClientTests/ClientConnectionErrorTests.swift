@testable import EarshotClient
import Foundation
import Testing

/// What the client says when it cannot reach the daemon.
@Suite struct ClientConnectionErrorTests {
    static func connectionError(_ path: String) -> ClientError? {
        do {
            _ = try DaemonConnection.connect(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func noSocketFileMeansTheDaemonIsNotRunning() throws {
        let path = ScriptedDaemonPeer.freshPath()
        let error = try #require(Self.connectionError(path))
        #expect(error == .daemonNotRunning(path: path, staleSocketFile: false))
        let message = error.description
        #expect(message.contains("not running"))
        #expect(message.contains(path))
        #expect(message.contains("`earshotd`"))
        #expect(message.contains("systemctl --user start earshotd.socket"))
        #expect(message.split(separator: "\n").count <= 2)
    }

    @Test func aSocketFileNobodyListensOnIsCalledLeftOver() throws {
        let path = try ScriptedDaemonPeer.staleSocketFile()
        defer { unlink(path) }
        let error = try #require(Self.connectionError(path))
        #expect(error == .daemonNotRunning(path: path, staleSocketFile: true))
        #expect(error.description.contains("not running"))
        #expect(error.description.contains("left behind"))
        #expect(error.description.contains(path))
        #expect(error.description.split(separator: "\n").count <= 2)
    }

    @Test func aMissingDirectoryIsNotRunningToo() throws {
        let path = "/tmp/earshot-no-such-directory-\(UUID().uuidString.prefix(6))/earshot.sock"
        #expect(Self.connectionError(path) == .daemonNotRunning(path: path, staleSocketFile: false))
    }

    @Test func somethingOtherThanASocketIsNamed() throws {
        let path = NSTemporaryDirectory()
        let error = try #require(Self.connectionError(path))
        #expect(error == .notASocket(path: path))
        #expect(error.description.contains("not a socket"))
    }

    @Test func permissionDeniedSaysTheSocketIsAnotherUsers() {
        // Root reaches every socket file, so the errno is fed in directly.
        let path = "/run/user/1001/earshot/earshot.sock"
        for code in [EACCES, EPERM] {
            let error = ClientError.connectFailure(errno: code, path: path, fileType: S_IFSOCK)
            #expect(error == .socketOwnedByAnotherUser(path: path))
            #expect(error.description.contains("belongs to another user"))
            #expect(error.description.contains(path))
        }
    }

    @Test func otherConnectFailuresNameTheCallAndTheReason() {
        let error = ClientError.connectFailure(errno: EMFILE, path: "/x.sock", fileType: nil)
        #expect(error == .systemCallFailed(action: "connect to /x.sock", errno: EMFILE))
        #expect(error.description == "Could not connect to /x.sock: Too many open files.")
    }

    @Test func aPathTooLongForASocketIsRefusedBeforeConnecting() throws {
        let path = "/tmp/" + String(repeating: "d", count: 200) + ".sock"
        let error = try #require(Self.connectionError(path))
        #expect(error == .socketPathTooLong(path: path, limit: 107))
        #expect(error.description.contains("too long"))
    }

    @Test func timeoutsAndHangUpsAreWorded() {
        #expect(ClientError.timedOut(waitingFor: "`status`", after: .milliseconds(2500)).description
            == "The Earshot daemon did not answer `status` within 2.5 s.")
        #expect(ClientError.connectionClosed(path: "/s.sock").description.contains("closed the connection"))
        #expect(ClientError.commandFailed(command: "stop", code: "nothing_playing", message: "Nothing is playing.").description
            == "Nothing is playing.")
    }
}
