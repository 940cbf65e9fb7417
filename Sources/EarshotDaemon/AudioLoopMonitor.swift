import EarshotPulse
import EarshotSupervision
import Synchronization

/// What the capture and socket services tell the supervisor: that the socket listens and how
/// the sound server fares.
final class AudioLoopMonitor: Sendable {
    private let listening = Atomic<Bool>(false)
    private let loss = Mutex<SoundServerState?>(nil)

    /// The socket accepts connections.
    func socketListens() {
        listening.store(true, ordering: .releasing)
    }

    var isSocketListening: Bool { listening.load(ordering: .acquiring) }

    /// Called with each engine event, off the audio path.
    func record(_ event: PulseEngineEvent) {
        switch event {
        case .connected:
            loss.withLock { $0 = nil }
        case .disconnected(let error, let retryIn):
            loss.withLock { $0 = .lost(reason: error.message, retryIn: retryIn) }
        case .sourceChanged, .sinkChanged, .devicesChanged, .playbackFinished:
            break
        }
    }

    /// The connection as `status` shows it, with the reason and retry delay of the latest loss.
    func soundServer(_ status: PulseEngineStatus) -> SoundServerState {
        if status.isConnected { return .connected(source: status.source ?? "the default source") }
        return loss.withLock { $0 } ?? .connecting
    }
}
