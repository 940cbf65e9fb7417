import CFlite
import EarshotSpeech
import Glibc

/// The voices built into Debian's flite.
public enum FliteVoice: String, CaseIterable, Sendable {
    /// Diphone, male, 8 kHz.
    case kal
    /// Diphone, male, 16 kHz.
    case kal16
    /// Unit selection, male (Scottish English), 16 kHz.
    case awb
    /// Unit selection, male, 16 kHz.
    case rms
    /// Unit selection, female, 16 kHz: the clearest.
    case slt

    /// `cst_voice *register_cmu_us_<voice>(const char *voxdir)`, which no installed header declares.
    private typealias Register = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<cst_voice>?

    /// Makes flite's voice (call once: the engine keeps it), loading its library first: each
    /// voice's data costs about 1.6 MB of resident memory once loaded, so only voices in use are.
    func register() throws(SpeechError) -> UnsafeMutablePointer<cst_voice>? {
        let library = "libflite_cmu_us_\(rawValue).so.1"
        // Never closed: flite keeps the voice, and so its data, for the process's life. The
        // library's own dependencies (flite, usenglish, cmulex) resolve its symbols, so LOCAL.
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            throw SpeechError(.misconfigured, "flite's voice \(rawValue) is not installed (\(Self.dlerrorText(or: library))): install libflite1")
        }
        let symbol = "register_cmu_us_\(rawValue)"
        guard let register = dlsym(handle, symbol) else {
            throw SpeechError(.misconfigured, "flite's voice \(rawValue) cannot be made (\(Self.dlerrorText(or: symbol))): reinstall libflite1")
        }
        return unsafeBitCast(register, to: Register.self)(nil)
    }

    private static func dlerrorText(or fallback: String) -> String {
        dlerror().map { String(cString: $0) } ?? fallback
    }
}
