/// Why a voice file could not be read: every problem found in it, in file order.
public struct VoiceFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [VoiceProblem]

    public init(problems: [VoiceProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
