/// A test sound server that would not start, or a client of it (`pactl`) that failed.
public struct SoundServerFailure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}
