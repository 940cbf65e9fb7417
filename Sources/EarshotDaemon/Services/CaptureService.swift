import EarshotBase
import EarshotProtocol
import EarshotPulse
import Logging
import ServiceLifecycle

/// Runs the sound-server connection; the session's frame handler gets each captured frame on
/// libpulse's mainloop thread, where it arrives.
struct CaptureService: Service {
    let engine: PulseAudioEngine
    let session: VoiceSession
    let logger: Logger
    /// Told of every engine event, for the watchdog.
    let monitor: AudioLoopMonitor

    func run() async throws {
        try engine.start()
        await withGracefulShutdownHandler {
            for await event in engine.events {
                monitor.record(event)
                forward(event)
            }
        } onGracefulShutdown: {
            engine.stop()
        }
        engine.stop()
        logger.info("Capture stopped")
    }

    private func forward(_ event: PulseEngineEvent) {
        let time = session.audioTime
        switch event {
        case .connected(let server, let source, let sink):
            logger.info("Connected to the sound server", metadata: ["server": "\(server)", "source": "\(source)", "sink": "\(sink)"])
            session.publish(.device(DeviceEvent(change: .connected, source: source, sink: sink, server: server, time: time)))
        case .disconnected(let error, let retryIn):
            let seconds = Double(retryIn.components.seconds) + Double(retryIn.components.attoseconds) * 1e-18
            let message = "The sound server went away (\(error.message)); retrying in \(DecimalText.fixed(seconds, decimals: 1)) s."
            logger.warning("\(message)", metadata: ["while": "\(error.operation)"])
            session.publish(.error(ErrorEvent(code: .soundServerLost, message: message, retryIn: seconds, time: time)))
            session.publish(.device(DeviceEvent(change: .disconnected, source: nil, sink: nil, server: nil, time: time)))
        case .sourceChanged(let source):
            logger.info("Recording from a new source", metadata: ["source": "\(source)"])
            session.publish(.device(DeviceEvent(change: .source, source: source, sink: engine.status.sink, server: engine.status.server, time: time)))
        case .sinkChanged(let sink):
            logger.info("Playing to a new sink", metadata: ["sink": "\(sink)"])
            session.publish(.device(DeviceEvent(change: .sink, source: engine.status.source, sink: sink, server: engine.status.server, time: time)))
        case .devicesChanged, .playbackFinished:
            break
        }
    }
}
