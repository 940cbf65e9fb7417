import Foundation

/// A terminal call that failed, with what it was for.
struct TerminalError: Error, CustomStringConvertible {
    var action: String
    var code: Int32

    var description: String {
        "Could not \(action): \(String(cString: strerror(code)))."
    }
}
