import Glibc

/// A pipe that wakes the responder's reading thread when the reply is no longer wanted: the
/// thread polls it together with the command's output. Its ends are closed only when neither the
/// thread nor the stream's termination handler holds it, so a late `cancel` never writes into a
/// descriptor number reused by someone else.
final class ResponderCancellation: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    init(command: String) throws(ResponderError) {
        guard let ends = ResponderPipe.make(nonBlocking: true) else {
            throw ResponderError.couldNotStart(command: command, errno: errno)
        }
        readEnd = ends.read
        writeEnd = ends.write
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func cancel() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
