import Testing

/// desk_sounds.wav (Tests/Fixtures/conversation/README.md): a cough, a knock and a burst of
/// typing while the assistant answers, then the person's real interruption. Replayed with real
/// flite voices, without and with the speaker's echo in the microphone.
@Suite struct DeskSoundBargeInTests {
    static let recording = "conversation/desk_sounds.wav"
    /// The cough, the knock and the typing in desk_sounds.wav, in seconds.
    static let deskSounds: [ClosedRange<Double>] = [5.00...5.24, 6.50...6.74, 8.00...8.70]
    /// Where "turn on the kitchen lights" is placed in desk_sounds.wav.
    static let interruption = 9.94

    @Test(arguments: ["conversation/desk_sounds.conversation.toml", "conversation/desk_sounds_echo.conversation.toml"])
    func deskSoundsNeverPauseTheReplyButThePersonStillStopsIt(script: String) async throws {
        let events = LoggedEvent.all(in: try await ConversationFixture.replay(Self.recording, script: script))
        let start = try #require(events.first { $0.isSpeaker("start", reply: 1) })
        #expect(start.t < Self.deskSounds[0].lowerBound, "the reply plays before the first desk sound: \(start)")

        let overTheReply = events.filter { $0.t > start.t && $0.t < Self.interruption }
        let disturbed = overTheReply.filter { ($0.event == "speaker" && $0.reply == 1) || $0.event == "speech" || $0.state == "hearing" }
        #expect(disturbed.isEmpty, "the desk sounds disturbed the reply:\n\(disturbed.map(\.line).joined(separator: "\n"))")

        let pause = try #require(events.firstIndex { $0.isSpeaker("pause", reply: 1) })
        #expect(events[pause].t >= Self.interruption && events[pause].t <= Self.interruption + 0.6, "paused for the person: \(events[pause])")
        let stop = try #require(events.firstIndex { $0.isSpeaker("stop", reply: 1) })
        #expect(stop > pause)
        #expect(!events.contains { $0.isSpeaker("resume", reply: 1) || $0.isSpeaker("end", reply: 1) })
        let hearing = try #require(events.first { $0.state == "hearing" && $0.turn == 2 })
        #expect(hearing.t == events[stop].t, "the interruption became turn 2 as the reply stopped")
        #expect(events.contains { $0.isSpeaker("end", reply: 2) }, "the second answer was said to its end")
        #expect(events.filter { $0.state == "hearing" }.count == 2, "only the two requests opened turns")
    }
}
