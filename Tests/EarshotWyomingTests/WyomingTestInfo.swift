import EarshotWyoming

/// Info events as servers of each kind send them.
enum WyomingTestInfo {
    static func speechToText(streaming: Bool = false) -> WyomingInfo {
        WyomingInfo(asr: [
            WyomingASRProgram(
                WyomingArtifact(name: "fake-asr"),
                models: [WyomingASRModel(WyomingArtifact(name: "fake-model"), languages: ["en"])],
                supportsTranscriptStreaming: streaming
            )
        ])
    }

    static func textToSpeech(streaming: Bool = false) -> WyomingInfo {
        WyomingInfo(tts: [
            WyomingTTSProgram(
                WyomingArtifact(name: "fake-tts"),
                voices: [WyomingTTSVoice(WyomingArtifact(name: "fake-voice"), languages: ["en"])],
                supportsSynthesizeStreaming: streaming
            )
        ])
    }
}
