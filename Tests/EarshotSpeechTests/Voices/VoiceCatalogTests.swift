import EarshotSpeech
import Foundation
import Testing

@Suite struct VoiceCatalogTests {
    private static let fiveVoices = ["breeze", "cove", "ember", "juniper", "sky"]

    private func bundled() throws -> String {
        try #require(VoiceCatalog.bundledDirectory(), "the checkout's voices/ directory")
    }

    @Test func theFiveBundledVoicesLoadWithoutProblems() throws {
        let catalog = VoiceCatalog.load(bundledDirectory: try bundled(), userDirectory: nil)
        #expect(catalog.problems.map(\.description) == [])
        #expect(catalog.voices.map(\.id) == Self.fiveVoices)
        #expect(catalog.voices.map(\.displayName) == ["Breeze", "Cove", "Ember", "Juniper", "Sky"])
        #expect(catalog.defaultVoice?.id == "breeze")
        #expect(catalog.voice(named: "breeze")?.summary == "Animated and earnest")
        #expect(catalog.voice(named: "cove")?.summary == "Composed and direct")
        #expect(catalog.voice(named: "sky")?.summary == "Bright and inquisitive")
    }

    @Test func theBundledVoicesAreCompleteAndDistinct() throws {
        let voices = VoiceCatalog.load(bundledDirectory: try bundled(), userDirectory: nil).voices
        for voice in voices {
            #expect(voice.language == "en-US", "\(voice.id)")
            #expect(voice.flite != nil && voice.espeak != nil && voice.wyoming != nil, "\(voice.id)")
            #expect(!voice.summary.isEmpty && !voice.summary.contains("\n"), "\(voice.id)")
        }
        func distinct<T: Hashable>(_ values: [T]) -> Bool { Set(values).count == values.count }
        #expect(distinct(voices.map(\.summary)))
        #expect(distinct(voices.compactMap { $0.flite.map { "\($0.voice) \($0.durationStretch) \($0.pitchHz)" } }))
        #expect(distinct(voices.compactMap(\.espeak?.voice)))
        #expect(distinct(voices.compactMap(\.wyoming?.voice)))
        #expect(Set(voices.compactMap(\.flite?.voice)).count >= 3)
    }

    @Test func lookupIgnoresCaseAndAcceptsDisplayNames() throws {
        let mine = Voice(id: "mine", displayName: "Deep Sea", summary: "Low", language: "en-US", wyoming: .init(voice: "x"))
        let catalog = VoiceCatalog(voices: [mine])
        #expect(catalog.voice(named: "MINE") == mine)
        #expect(catalog.voice(named: "deep sea") == mine)
        #expect(catalog.voice(named: "shallow") == nil)
        #expect(catalog.defaultVoice == mine, "without Breeze the first voice is the default")
    }

    @Test func aUsersFileOverridesTheBundledOneAndAddsItsOwn() throws {
        let user = try TemporaryDirectory()
        defer { user.remove() }
        try user.write("Sky.toml", "name = \"Sky\"\ndescription = \"Mine now\"\nlanguage = \"en-GB\"\n[espeak-ng]\nvoice = \"en-gb\"\n")
        try user.write("river.toml", "name = \"River\"\ndescription = \"Flowing\"\nlanguage = \"en-US\"\n[flite]\nvoice = \"awb\"\n")
        let catalog = VoiceCatalog.load(bundledDirectory: try bundled(), userDirectory: user.path)
        #expect(catalog.problems.isEmpty)
        #expect(catalog.voices.map(\.id) == ["breeze", "cove", "ember", "juniper", "river", "sky"])
        let sky = try #require(catalog.voice(named: "Sky"))
        #expect(sky.summary == "Mine now")
        #expect(sky.flite == nil)
        #expect(catalog.voice(named: "river")?.flite?.voice == "awb")
    }

    @Test func invalidUserFilesAreReportedWhileTheRestLoad() throws {
        let user = try TemporaryDirectory()
        defer { user.remove() }
        try user.write("juniper.toml", "name = \"Juniper\"\ndescription = \"Broken\"\nlanguage = \"en-US\"\n[flite]\nvoice = \"slt\"\npich = 3\n")
        try user.write("garbled.toml", "name = \n")
        try user.write("fine.toml", "name = \"Fine\"\ndescription = \"Works\"\nlanguage = \"en-US\"\n[wyoming]\nvoice = \"en_US-amy-low\"\n")
        try user.write("notes.txt", "not a voice")
        try user.write(".hidden.toml", "not = \"a voice\"")
        let catalog = VoiceCatalog.load(bundledDirectory: try bundled(), userDirectory: user.path)
        #expect(catalog.voices.map(\.id) == ["breeze", "cove", "ember", "fine", "juniper", "sky"])
        #expect(catalog.voice(named: "juniper")?.summary == "Open and upbeat", "the bundled Juniper stays")
        let descriptions = catalog.problems.map(\.description)
        #expect(descriptions.count == 2)
        #expect(descriptions.first?.hasPrefix("\(user.path)/garbled.toml:1: invalid TOML: ") == true, "\(descriptions)")
        #expect(descriptions.last == "\(user.path)/juniper.toml: unknown key `flite.pich` (known: voice, duration_stretch, f0_mean_hz)")
    }

    @Test func filesDifferingOnlyInCaseAreADuplicate() throws {
        let user = try TemporaryDirectory()
        defer { user.remove() }
        let text = "name = \"Echo\"\ndescription = \"Twice\"\nlanguage = \"en-US\"\n[flite]\nvoice = \"rms\"\n"
        try user.write("Echo.toml", text)
        try user.write("echo.toml", text)
        let catalog = VoiceCatalog.load(bundledDirectory: nil, userDirectory: user.path)
        #expect(catalog.voices.map(\.id) == ["echo"])
        #expect(catalog.problems.map(\.description) == [
            "\(user.path)/echo.toml: defines the same voice as \(user.path)/Echo.toml; this file is ignored",
        ])
    }

    @Test func aMissingUserDirectoryIsNormalButAMissingBundledOneIsNot() {
        let catalog = VoiceCatalog.load(bundledDirectory: "/nonexistent/share/voices", userDirectory: "/nonexistent/user/voices")
        #expect(catalog.voices.isEmpty)
        #expect(catalog.problems.map(\.description) == ["/nonexistent/share/voices: cannot read: no such directory"])
    }

    @Test func theUsersDirectoryFollowsXDG() {
        #expect(VoiceCatalog.userDirectory(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/a"]) == "/cfg/earshot/voices")
        #expect(VoiceCatalog.userDirectory(environment: ["HOME": "/home/a"]) == "/home/a/.config/earshot/voices")
        #expect(VoiceCatalog.userDirectory(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/a"]) == "/home/a/.config/earshot/voices")
        #expect(VoiceCatalog.userDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]) == "/home/a/.config/earshot/voices")
        #expect(VoiceCatalog.userDirectory(environment: [:]) == nil)
    }

    @Test func theBundledDirectoryIsFoundInOrder() throws {
        #expect(VoiceCatalog.bundledDirectory(explicit: "/opt/voices") == "/opt/voices")
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        try FileManager.default.createDirectory(atPath: prefix.path + "/share/earshot/voices", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix.path + "/bin", withIntermediateDirectories: true)
        #expect(VoiceCatalog.bundledDirectory(executablePath: prefix.path + "/bin/earshotd") == prefix.path + "/share/earshot/voices")
        let checkout = try #require(VoiceCatalog.bundledDirectory(executablePath: "/nonexistent/bin/earshotd"))
        #expect(checkout.hasSuffix("/voices"))
        #expect(FileManager.default.fileExists(atPath: checkout + "/breeze.toml"))
    }
}
