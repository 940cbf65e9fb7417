/// A recording that could not be written, listed or deleted, in words a person can act on.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
