import EarshotPulse
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Faults the tests ask for through the environment, where no real peer can show them on demand.
///
/// `EARSHOT_FAULT_STALL_AUDIO_THREAD_AFTER_MS=N`: N ms after start, a thread takes the audio
/// engine's lock and never gives it back, so the audio thread stands still with its lock held,
/// as it does when libpulse spins in `pa_pstream_unlink` (a race with a dying sound server that
/// no test can hit at will). ``ProcessRestart`` leaves the variable out, so the fault strikes once.
enum DaemonFaults {
    static let stallAudioThreadVariable = "EARSHOT_FAULT_STALL_AUDIO_THREAD_AFTER_MS"

    static func injectAsked(engine: PulseAudioEngine) {
        guard let text = getenv(stallAudioThreadVariable).map({ String(cString: $0) }),
            let milliseconds = UInt32(text)
        else { return }
        let stall = StalledEngine(engine: engine, delayMicroseconds: milliseconds * 1000)
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let stall = Unmanaged<StalledEngine>.fromOpaque(argument).takeRetainedValue()
            stall.holdTheLockForGood()
            return nil
        }, Unmanaged.passRetained(stall).toOpaque())
        pthread_detach(thread)
    }

    private final class StalledEngine {
        let engine: PulseAudioEngine
        let delayMicroseconds: UInt32

        init(engine: PulseAudioEngine, delayMicroseconds: UInt32) {
            self.engine = engine
            self.delayMicroseconds = delayMicroseconds
        }

        func holdTheLockForGood() {
            usleep(delayMicroseconds)
            engine.withCaptureLock {
                while true { pause() }
            }
        }
    }
}
