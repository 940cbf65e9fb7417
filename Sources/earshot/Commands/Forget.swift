import ArgumentParser
import EarshotClient
import EarshotProtocol
import Foundation

struct ForgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Delete every recording the daemon made (earshotd --debug-turns).",
        discussion: """
            Deletes the debug recordings in the daemon's recordings directory \
            ($XDG_STATE_HOME/earshot/recordings): every turn's audio and details it wrote, in this \
            run or an earlier one, and nothing else. Asks first on a terminal; elsewhere needs --yes. \
            Exit status: 0 done (or declined), 1 not confirmed or the daemon refused, 3 the daemon \
            is not running, 4 it could not be talked to.
            """
    )

    @Flag(name: [.short, .long], help: "Delete without asking.")
    var yes = false

    @OptionGroup var daemon: DaemonOptions

    func run() throws {
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                // The daemon says what would go; nothing is deleted without --yes.
                _ = try daemon.withConnection { connection throws(ClientError) in try connection.request(.forget(confirm: false)) }
                return
            }
            guard try confirmed() else { return }
        }
        let response = try daemon.withConnection { connection throws(ClientError) in
            try connection.request(.forget(confirm: true))
        }
        let deleted = response["deleted"]?.integerValue ?? 0
        let turns = response["turns"]?.integerValue ?? 0
        let directory = response["directory"]?.stringValue ?? "the recordings directory"
        ConsoleOutput.line(
            deleted == 0
                ? "There were no recordings to delete in \(directory)."
                : "Deleted \(Self.count(deleted, "file")) (\(Self.count(turns, "recorded turn"))) from \(directory)."
        )
    }

    /// Says what would be deleted and asks; false when there is nothing to delete or the answer is no.
    private func confirmed() throws -> Bool {
        let status = try daemon.withConnection { connection throws(ClientError) in try connection.request(.status) }.status
        let directory = status.recording?.directory ?? "the recordings directory"
        let kept = status.recording?.kept ?? 0
        guard kept > 0 else {
            ConsoleOutput.line("There are no recordings to delete in \(directory).")
            return false
        }
        FileHandle.standardOutput.write(Data("Delete \(Self.count(kept, "recorded turn")) in \(directory)? [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else {
            ConsoleOutput.line("Nothing was deleted.")
            return false
        }
        return true
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
