import ArgumentParser

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replay", abstract: "Not built yet.")
    func run() throws { throw ValidationError("not built yet") }
}
