import ArgumentParser
import EarshotClient
import EarshotConversation
import Foundation
import Glibc

/// Dictation's hands on the keyboard: the typing tool, run once per step as a child process.
struct DictationKeyboard {
    /// Why a step could not be typed, in words, with what to do about it.
    struct Failure: Error {
        var message: String

        /// Says it on stderr; typing failures exit with status 1.
        func exitAfterSaying() -> ExitCode {
            ConsoleOutput.error(message)
            return ExitCode(1)
        }
    }

    /// A typing tool that hangs (a display that does not answer) is stopped after this.
    static let timeout: Duration = .seconds(20)

    let typer: DictationTyper
    let environment: [String: String]
    /// The notes about the tool's limits already printed: each is said once.
    var notesSaid: Set<String> = []

    /// The tool `typer` names, or the one that suits the session; says a note about the choice.
    init(choosing typer: DictationTyper?, environment: [String: String]) throws {
        self.environment = DictationTyper.environment(environment)
        if let typer {
            self.typer = typer
            return
        }
        switch DictationTyperChoice.choose(environment: environment, isInstalled: { Self.isInstalled($0, path: environment["PATH"]) }) {
        case .success(let choice):
            self.typer = choice.typer
            if let note = choice.note { ConsoleOutput.error("Note: " + note) }
        case .failure(let failure):
            throw Failure(message: failure.description).exitAfterSaying()
        }
    }

    /// Types `steps` in order; the first failure stops it and is returned.
    mutating func perform(_ steps: [DictationText.Step]) -> Failure? {
        for step in steps {
            if case .text(let text) = step, let limitation = typer.limitation(typing: text), notesSaid.insert(limitation).inserted {
                ConsoleOutput.error("Note: " + limitation)
            }
            for arguments in typer.commandLines(for: step) {
                switch ChildCommand.run(arguments, environment: environment, timeout: Self.timeout) {
                case .succeeded:
                    continue
                case .notFound:
                    return Failure(message: typer.notInstalled)
                case .couldNotStart(let why):
                    return Failure(message: "Could not run \(typer.rawValue): \(why)")
                case .failed(let status, let errors):
                    let how = status.map { "exited with status \($0)" } ?? "did not finish within \(Self.timeout)"
                    let said = errors.isEmpty ? "" : " (\(errors))"
                    return Failure(message: "\(typer.rawValue) \(how)\(said). \(typer.advice)")
                }
            }
        }
        return nil
    }

    static func isInstalled(_ typer: DictationTyper, path: String?) -> Bool {
        (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").contains { directory in
            access("\(directory)/\(typer.rawValue)", X_OK) == 0
        }
    }
}
