import EarshotDaemon
import EarshotProtocol
import Foundation
import Testing

struct NotifyFieldTests {
    @Test func aMessageIsOneAssignmentPerLine() {
        #expect(NotifyField.message([.ready, .status("listening on mic")]) == "READY=1\nSTATUS=listening on mic")
        #expect(NotifyField.message([.stopping, .watchdog, .watchdogTrigger, .reloading, .errno(5)])
            == "STOPPING=1\nWATCHDOG=1\nWATCHDOG=trigger\nRELOADING=1\nERRNO=5")
    }

    @Test func aStatusStaysOnOneLine() {
        #expect(NotifyField.status("sound server lost\n(gone)\r\nretrying").assignment == "STATUS=sound server lost (gone) retrying")
    }

    @Test func aListeningUnixSocketIsRecognizedWithItsPath() throws {
        let path = NSTemporaryDirectory() + "earshot-sd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(try UnixSocketAddress(path: path).bind(descriptor) == 0)
        #expect(try !ServiceManager.isListeningUnixStreamSocket(descriptor))
        try #require(listen(descriptor, 4) == 0)
        #expect(try ServiceManager.isListeningUnixStreamSocket(descriptor))
        #expect(ServiceManager.boundPath(of: descriptor) == path)
    }

    @Test func aDescriptorThatIsNoSocketIsAnError() throws {
        let descriptor = open("/dev/null", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(try !ServiceManager.isListeningUnixStreamSocket(descriptor))
        #expect(ServiceManager.boundPath(of: descriptor) == nil)
        #expect(throws: ServiceManagerError(call: "sd_is_socket_unix", errno: EBADF)) {
            try ServiceManager.isListeningUnixStreamSocket(-1)
        }
    }
}
