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
    /// `void unregister_cmu_us_<voice>(cst_voice *vox)`, likewise.
    typealias Unregister = @convention(c) (UnsafeMutablePointer<cst_voice>?) -> Void

    /// Makes flite's voice, loading its library first, so that only voices in use cost memory:
    /// slt takes 2 MB once made and 7 MB once it has spoken, nearly all of which
    /// ``LoadedFliteVoice/unload()`` gives back.
    func load() throws(SpeechError) -> LoadedFliteVoice {
        let library = "libflite_cmu_us_\(rawValue).so.1"
        // The library's own dependencies (flite, usenglish, cmulex) resolve its symbols, so LOCAL.
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            throw SpeechError(.misconfigured, "flite's voice \(rawValue) is not installed (\(Self.dlerrorText(or: library))): install libflite1")
        }
        let registerSymbol = "register_cmu_us_\(rawValue)", unregisterSymbol = "unregister_cmu_us_\(rawValue)"
        guard let register = dlsym(handle, registerSymbol), let unregister = dlsym(handle, unregisterSymbol) else {
            let reason = Self.dlerrorText(or: registerSymbol)
            dlclose(handle)
            throw SpeechError(.misconfigured, "flite's voice \(rawValue) cannot be made (\(reason)): reinstall libflite1")
        }
        guard let voice = unsafeBitCast(register, to: Register.self)(nil) else {
            dlclose(handle)
            throw SpeechError(.misconfigured, "flite could not load its voice \"\(rawValue)\": reinstall libflite1")
        }
        return LoadedFliteVoice(voice: voice, library: handle, unregister: unsafeBitCast(unregister, to: Unregister.self))
    }

    private static func dlerrorText(or fallback: String) -> String {
        dlerror().map { String(cString: $0) } ?? fallback
    }
}

/// A voice flite has made, with the library its data lives in, both kept until ``unload()``.
struct LoadedFliteVoice {
    let voice: UnsafeMutablePointer<cst_voice>
    private let library: UnsafeMutableRawPointer
    private let unregister: FliteVoice.Unregister

    init(voice: UnsafeMutablePointer<cst_voice>, library: UnsafeMutableRawPointer, unregister: @escaping FliteVoice.Unregister) {
        self.voice = voice
        self.library = library
        self.unregister = unregister
    }

    /// Deletes the voice, with the features it owns (the streaming hookup among them), then
    /// closes its library. Call once, and use neither the voice nor its features afterwards.
    func unload() {
        unregister(voice)
        dlclose(library)
    }
}
