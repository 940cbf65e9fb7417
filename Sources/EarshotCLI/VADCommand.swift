import ArgumentParser

struct VADCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "vad", abstract: "Not built yet.")
    func run() throws { throw ValidationError("not built yet") }
}
