import EarshotWyoming
import NIOCore

/// A conversation's view of its connection: what happens on it, in order, and a way to write.
struct WyomingLink<Local: Sendable> {
    let inputs: AsyncStream<WyomingInput<Local>>
    let deadline: ResponseDeadline
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Writes the events in one go; throws ``WyomingClientFailure`` (or `CancellationError`).
    func send(_ events: [WyomingEvent]) async throws {
        var bytes: [UInt8] = []
        for event in events { event.write(to: &bytes) }
        do {
            try await outbound.write(ByteBuffer(bytes: bytes))
        } catch {
            if let expiry = deadline.expiry { throw expiry }
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw WyomingClientFailure.connectionBroken(WyomingConnection.reason(error))
        }
    }
}
