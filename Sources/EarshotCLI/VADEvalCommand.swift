import ArgumentParser

struct VADEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "vad-eval", abstract: "Not built yet.")
    func run() throws { throw ValidationError("not built yet") }
}
