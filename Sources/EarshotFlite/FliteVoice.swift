import CFlite

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

    /// Makes flite's voice (call once: the engine keeps it).
    func register() -> UnsafeMutablePointer<cst_voice>? {
        switch self {
        case .kal: register_cmu_us_kal(nil)
        case .kal16: register_cmu_us_kal16(nil)
        case .awb: register_cmu_us_awb(nil)
        case .rms: register_cmu_us_rms(nil)
        case .slt: register_cmu_us_slt(nil)
        }
    }
}
