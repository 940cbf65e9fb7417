public import EarshotProtocol

/// `info`: what a server offers, the answer to `describe`. Only speech-to-text and text-to-speech
/// are read; the other services (wake, intent, handle, mic, snd) are ignored.
public struct WyomingInfo: WyomingMessage {
    public static let eventType = "info"

    public var asr: [WyomingASRProgram]
    public var tts: [WyomingTTSProgram]

    public init(asr: [WyomingASRProgram] = [], tts: [WyomingTTSProgram] = []) {
        self.asr = asr
        self.tts = tts
    }

    public init(data: JSONObject, payload: [UInt8]) throws(WyomingMessageError) {
        let fields = WyomingFields(data, eventType: Self.eventType)
        var asr: [WyomingASRProgram] = []
        for program in try fields.objects("asr") { asr.append(try WyomingASRProgram(program)) }
        var tts: [WyomingTTSProgram] = []
        for program in try fields.objects("tts") { tts.append(try WyomingTTSProgram(program)) }
        self.init(asr: asr, tts: tts)
    }

    public var data: JSONObject {
        ["asr": .array(asr.map(\.json)), "tts": .array(tts.map(\.json))]
    }

    /// Whether any installed speech-to-text program streams its transcripts.
    public var supportsTranscriptStreaming: Bool {
        asr.contains { $0.artifact.installed && $0.supportsTranscriptStreaming }
    }

    /// Whether any installed text-to-speech program takes streamed text.
    public var supportsSynthesizeStreaming: Bool {
        tts.contains { $0.artifact.installed && $0.supportsSynthesizeStreaming }
    }
}
