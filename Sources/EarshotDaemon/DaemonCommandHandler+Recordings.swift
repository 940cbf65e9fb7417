import EarshotProtocol
import EarshotRecordings

extension DaemonCommandHandler {
    /// `forget`: deletes every recording the daemon made once confirmed; before that, says
    /// what it would delete and how to confirm.
    func forget(confirm: Bool) async -> CommandResult {
        let directory = recordings.store.directory
        guard confirm else {
            let found: RecordingInventory
            do {
                found = try recordings.store.inventory()
            } catch {
                return .failure(ProtocolError(code: "forget_failed", message: error.message))
            }
            let what = found.names.isEmpty ? "There are no recordings in \(directory), so nothing would be deleted" : "This deletes every recording earshotd made: \(found.summary) in \(directory)"
            return .failure(ProtocolError(
                code: ProtocolError.Code.confirmationRequired,
                message: "\(what). To go ahead, send {\"cmd\":\"forget\",\"confirm\":true} (or run `earshot forget --yes`)."
            ))
        }
        do {
            let deleted = try await recordings.forget()
            return .success(["deleted": .integer(deleted.names.count), "turns": .integer(deleted.turns.count), "directory": .string(directory)])
        } catch {
            return .failure(ProtocolError(code: "forget_failed", message: error.message))
        }
    }
}
