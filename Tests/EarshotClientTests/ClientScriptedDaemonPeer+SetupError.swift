import Foundation

extension ScriptedDaemonPeer {
    /// The scripted daemon could not set up its socket.
    struct SetupError: Error, CustomStringConvertible {
        var action: String
        var code: Int32

        var description: String { "could not \(action): \(String(cString: strerror(code)))" }
    }
}
