import CEspeak
import EarshotSpeech
import Glibc

/// libespeak-ng, opened with dlopen while espeak-ng is in use and closed when it is released.
///
/// Not linked: espeak-ng 1.51 (Debian 12) cannot be initialised again after espeak_Terminate,
/// since its command thread leaves a flag set that makes the next espeak_Terminate wait forever
/// (fifo.c, fixed in 1.52). A library closed and opened again starts from fresh state.
struct EspeakLibrary {
    typealias Initialize = @convention(c) (espeak_AUDIO_OUTPUT, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    /// `t_espeak_callback`, which Swift imports as a Swift function type, not a C one.
    typealias SynthCallback = @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32
    typealias SetSynthCallback = @convention(c) (SynthCallback?) -> Void
    typealias SetVoiceByName = @convention(c) (UnsafePointer<CChar>?) -> espeak_ERROR
    typealias SetParameter = @convention(c) (espeak_PARAMETER, Int32, Int32) -> espeak_ERROR
    typealias Synth = @convention(c) (
        UnsafeRawPointer?, Int, UInt32, espeak_POSITION_TYPE, UInt32, UInt32, UnsafeMutablePointer<UInt32>?, UnsafeMutableRawPointer?
    ) -> espeak_ERROR
    typealias Terminate = @convention(c) () -> espeak_ERROR

    static let file = "libespeak-ng.so.1"

    let initialize: Initialize
    let setSynthCallback: SetSynthCallback
    let setVoiceByName: SetVoiceByName
    let setParameter: SetParameter
    let synth: Synth
    let terminate: Terminate
    private let handle: UnsafeMutableRawPointer

    /// Opens the library and finds the functions Earshot calls.
    init() throws(SpeechError) {
        guard let handle = dlopen(Self.file, RTLD_NOW | RTLD_LOCAL) else {
            throw SpeechError(.misconfigured, "espeak-ng is not installed (\(Self.dlerrorText(or: Self.file))): install libespeak-ng1")
        }
        func function<Function>(_ name: String, as type: Function.Type) throws(SpeechError) -> Function {
            guard let symbol = dlsym(handle, name) else {
                let reason = Self.dlerrorText(or: name)
                dlclose(handle)
                throw SpeechError(.misconfigured, "espeak-ng's library lacks \(name) (\(reason)): reinstall libespeak-ng1")
            }
            return unsafeBitCast(symbol, to: type)
        }
        initialize = try function("espeak_Initialize", as: Initialize.self)
        setSynthCallback = try function("espeak_SetSynthCallback", as: SetSynthCallback.self)
        setVoiceByName = try function("espeak_SetVoiceByName", as: SetVoiceByName.self)
        setParameter = try function("espeak_SetParameter", as: SetParameter.self)
        synth = try function("espeak_Synth", as: Synth.self)
        terminate = try function("espeak_Terminate", as: Terminate.self)
        self.handle = handle
    }

    /// Closes the library: call once, after `terminate` if `initialize` was called, and call
    /// none of its functions afterwards.
    func close() {
        dlclose(handle)
    }

    private static func dlerrorText(or fallback: String) -> String {
        dlerror().map { String(cString: $0) } ?? fallback
    }
}
