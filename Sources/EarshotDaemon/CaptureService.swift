import EarshotProtocol
import EarshotPulse
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Runs the sound-server connection and the thread that feeds captured frames to the session.
///
/// The frame consumer is a plain thread blocking on the engine's frame signal: it is the only
/// reader of the capture ring and never waits on a client.
struct CaptureService: Service {
    let engine: PulseAudioEngine
    let session: VoiceSession
    let logger: Logger
    /// Told of every turn of the frame loop and every engine event, for the watchdog.
    let monitor: AudioLoopMonitor

    func run() async throws {
        try engine.start()
        let stopping = Atomic<Bool>(false)
        let consumer = Thread { [engine, session, monitor] in
            while !stopping.load(ordering: .acquiring) {
                monitor.pipelineTurned()
                guard engine.waitForFrames(timeout: .milliseconds(100)) else { continue }
                let arrived = WallClock.now()
                while let frame = engine.popFrame() { session.process(frame, capturedAt: arrived) }
            }
        }
        consumer.name = "earshot-pipeline"
        consumer.start()
        await withGracefulShutdownHandler {
            for await event in engine.events {
                monitor.record(event)
                forward(event)
            }
        } onGracefulShutdown: {
            engine.stop()
        }
        stopping.store(true, ordering: .releasing)
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
            let message = "The sound server went away (\(error.message)); retrying in \(String(format: "%.1f", seconds)) s."
            logger.warning("\(message)", metadata: ["while": "\(error.operation)"])
            session.publish(.error(ErrorEvent(code: "sound_server_lost", message: message, retryIn: seconds, time: time)))
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
