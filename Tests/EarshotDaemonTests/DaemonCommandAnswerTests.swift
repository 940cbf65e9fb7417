@testable import EarshotDaemon
import EarshotProtocol
import EarshotPulse
import EarshotSpeech
import Testing

/// What DaemonCommandHandler answers is made of the protocol's answer types, from the
/// daemon's own: the sound server's devices and the voice catalog.
@Suite struct DaemonCommandAnswerTests {
    @Test func theSoundServersDevicesAreListedAsTheyAre() {
        let list = PulseDeviceList(
            sources: [PulseDevice(name: "mic", description: "Built-in Microphone", isDefault: true),
                      PulseDevice(name: "speakers.monitor", description: "Monitor of Speakers", isMonitor: true)],
            sinks: [PulseDevice(name: "speakers", description: "Speakers", isDefault: true)]
        )
        let answer = DeviceListAnswer(list, source: "mic", sink: "speakers")
        #expect(answer.sources == [
            .init(name: "mic", description: "Built-in Microphone", isDefault: true, isMonitor: false),
            .init(name: "speakers.monitor", description: "Monitor of Speakers", isDefault: false, isMonitor: true),
        ])
        #expect(answer.sinks == [.init(name: "speakers", description: "Speakers", isDefault: true, isMonitor: false)])
        #expect(answer.source == "mic")
        #expect(answer.sink == "speakers")
        #expect(answer.fields["source"] == .string("mic"))
    }

    @Test func theVoicesAreListedWithTheCurrentOneMarked() {
        let breeze = Voice(id: "breeze", displayName: "Breeze", summary: "Calm and clear.", language: "en-US")
        let cove = Voice(id: "cove", displayName: "Cove", summary: "Low and warm.", language: "en-GB")
        let answer = VoiceListAnswer(VoiceCatalog(voices: [cove, breeze]), current: cove)
        #expect(answer.voices == [
            .init(id: "breeze", name: "Breeze", description: "Calm and clear.", language: "en-US", isCurrent: false),
            .init(id: "cove", name: "Cove", description: "Low and warm.", language: "en-GB", isCurrent: true),
        ])
        let line = String(decoding: Response(id: 7, result: .answer(answer)).jsonLine(), as: UTF8.self)
        #expect(line.hasPrefix(#"{"id":7,"ok":true,"voices":[{"id":"breeze","name":"Breeze","description":"Calm and clear.","language":"en-US","current":false}"#))
    }

    @Test func aDeviceCommandsFailureIsWordedWithItsCode() {
        let unknown = DaemonCommandHandler.protocolError(PulseError(.noEntity, while: "setting the sink"), device: "hdmi")
        #expect(unknown.knownCode == .unknownDevice)
        #expect(unknown.message.contains("hdmi"))
        let away = DaemonCommandHandler.protocolError(PulseError(.connectionRefused, while: "listing devices"), device: nil)
        #expect(away.knownCode == .soundServerUnavailable)
        let refused = DaemonCommandHandler.protocolError(PulseError(.accessDenied, while: "setting the sink"), device: "hdmi")
        #expect(refused.knownCode == .internalError)
    }

    @Test func aReplysVoiceIsTheOneNamedOrTheCurrentOneAndNeverAStandIn() throws {
        let breeze = Voice(id: "breeze", displayName: "Breeze", summary: "Calm and clear.", language: "en-US")
        let cove = Voice(id: "cove", displayName: "Cove", summary: "Low and warm.", language: "en-GB")
        let catalog = VoiceCatalog(voices: [breeze, cove])
        #expect(try catalog.replyVoice(nil, current: cove).get() == cove)
        #expect(try catalog.replyVoice("breeze", current: cove).get() == breeze)
        #expect(try catalog.replyVoice("Cove", current: breeze).get() == cove)
        guard case .failure(let refusal) = catalog.replyVoice("ember", current: cove) else {
            Issue.record("an unknown voice was stood in for")
            return
        }
        #expect(refusal.knownCode == .unknownVoice)
        #expect(refusal.message == "There is no voice called \"ember\". Voices: breeze, cove.")
    }
}
