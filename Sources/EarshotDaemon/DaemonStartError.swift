/// A setting the daemon cannot start with, in words.
public struct DaemonStartError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
