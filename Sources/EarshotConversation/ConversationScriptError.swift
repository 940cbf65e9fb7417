/// Why a conversation script could not be used: every problem found in it, in file order.
public struct ConversationScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [ScriptProblem]

    public init(problems: [ScriptProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
