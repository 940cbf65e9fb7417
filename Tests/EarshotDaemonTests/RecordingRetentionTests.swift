import EarshotRecordings
import Testing

/// Which files are the daemon's recordings, and which of them the last-N retention deletes.
@Suite struct RecordingRetentionTests {
    static let run = "20261121T203000123"
    static let earlierRun = "20261120T090000000"

    static func names(_ turns: [(String, Int)], partial: Bool = false) -> [RecordingName] {
        turns.flatMap { run, turn in
            RecordingName.Kind.allCases.map { RecordingName(turn: RecordedTurn(run: run, turn: turn), kind: $0, isPartial: partial) }
        }
    }

    @Test func namesReadBackAsTheTurnAndKindTheyWereMadeFrom() {
        let audio = RecordingName(turn: RecordedTurn(run: Self.run, turn: 7), kind: .audio)
        #expect(audio.fileName == "earshot-20261121T203000123-turn000007.opus")
        #expect(RecordingName(fileName: audio.fileName) == audio)
        let partial = RecordingName(turn: RecordedTurn(run: Self.run, turn: 1_234_567), kind: .details, isPartial: true)
        #expect(partial.fileName == "earshot-20261121T203000123-turn1234567.json.partial")
        #expect(RecordingName(fileName: partial.fileName) == partial)
    }

    @Test(arguments: [
        "notes.txt", "earshot.sock", "earshot-20261121T203000123-turn000007.wav",
        "earshot-20261121T203000123-turn000007.opus.bak", "earshot-20261121T203000123-turn0000007.opus",
        "earshot-20261121T203000123-turn000000.json", "earshot-20261121X203000123-turn000007.opus",
        "earshot-2026112T203000123-turn000007.opus", "Earshot-20261121T203000123-turn000007.opus",
        "earshot-20261121T203000123-turn00000a.opus", "earshot-20261121T203000123-turn000007.opus.partial.partial",
        "earshot-20261121T203000123-turn-00007.json", "",
    ])
    func anyOtherNameIsNotARecording(_ fileName: String) {
        #expect(RecordingName(fileName: fileName) == nil)
    }

    @Test func runStampsAreUTCToTheMillisecondAndSortInTimeOrder() {
        // 2026-11-21 20:30:00.123 UTC
        #expect(RecordedTurn.runStamp(wall: 1_795_293_000.123_9) == "20261121T203000123")
        #expect(RecordedTurn.runStamp(wall: 0) == "19700101T000000000")
        let stamps = [1_700_000_000.5, 1_700_000_000.25, 1_800_000_000.0, 1_699_999_999.999].map { RecordedTurn.runStamp(wall: $0) }
        #expect(stamps.sorted() == [stamps[3], stamps[1], stamps[0], stamps[2]])
    }

    @Test func theNewestTurnsStayAndEveryFileOfAnOlderTurnGoes() {
        let files = Self.names([(Self.run, 1), (Self.run, 2), (Self.run, 3)])
        let retention = RecordingRetention(keeping: 2)
        #expect(retention.keptTurns(files) == [RecordedTurn(run: Self.run, turn: 2), RecordedTurn(run: Self.run, turn: 3)])
        #expect(retention.surplus(files) == Self.names([(Self.run, 1)]))
    }

    @Test func turnsAreOrderedByNumberNotByName() {
        // turn 1000000 sorts before turn 999999 as text; it is the newer turn.
        let files = Self.names([(Self.run, 999_999), (Self.run, 1_000_000), (Self.run, 9)])
        #expect(RecordingRetention(keeping: 1).keptTurns(files) == [RecordedTurn(run: Self.run, turn: 1_000_000)])
    }

    @Test func anEarlierRunsTurnsAreOlderThanAnyOfThisRun() {
        let files = Self.names([(Self.run, 1), (Self.earlierRun, 40), (Self.earlierRun, 41)])
        let surplus = RecordingRetention(keeping: 2).surplus(files)
        #expect(surplus == Self.names([(Self.earlierRun, 40)]))
    }

    @Test func partialFilesLeftBehindGoWithTheirTurn() {
        let files = Self.names([(Self.run, 1), (Self.run, 2)]) + Self.names([(Self.run, 1)], partial: true)
        #expect(RecordingRetention(keeping: 1).surplus(files) == (Self.names([(Self.run, 1)]) + Self.names([(Self.run, 1)], partial: true)).sorted())
    }

    @Test func keepingNoneDeletesAllAndKeepingMoreThanThereAreDeletesNone() {
        let files = Self.names([(Self.run, 1), (Self.run, 2)])
        #expect(RecordingRetention(keeping: 0).surplus(files) == files.sorted())
        #expect(RecordingRetention(keeping: 50).surplus(files).isEmpty)
        #expect(RecordingRetention(keeping: -3).keeping == 0)
    }

    @Test func anInventorySaysHowManyFilesAndTurns() {
        #expect(RecordingInventory(directory: "/d", names: []).summary == "no recordings")
        #expect(RecordingInventory(directory: "/d", names: Self.names([(Self.run, 1)])).summary == "2 files (1 recorded turn)")
        let three = Self.names([(Self.run, 1), (Self.run, 2)]) + [RecordingName(turn: RecordedTurn(run: Self.run, turn: 3), kind: .audio)]
        #expect(RecordingInventory(directory: "/d", names: three).summary == "5 files (3 recorded turns)")
    }
}
