/// Why a configuration file cannot be used: every problem found in it, in file order.
public struct SettingsFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [SettingsProblem]

    public init(problems: [SettingsProblem]) {
        self.problems = problems
    }

    /// One problem per line.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
