import EarshotClient
import Testing

/// The typing tool that suits the session, and what each tool is asked to do.
@Suite struct DictationTyperTests {
    static func choice(_ environment: [String: String], installed: Set<DictationTyper> = Set(DictationTyper.allCases))
        -> Result<DictationTyperChoice, DictationTyperChoice.Failure>
    {
        DictationTyperChoice.choose(environment: environment, isInstalled: { installed.contains($0) })
    }

    @Test func waylandTypesWithWtypeAndGnomeWithYdotool() {
        #expect(Self.choice(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == .success(DictationTyperChoice(typer: .wtype)))
        #expect(Self.choice(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]) == .success(DictationTyperChoice(typer: .ydotool)))
    }

    @Test func x11TypesWithXdotool() {
        #expect(Self.choice(["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"]) == .success(DictationTyperChoice(typer: .xdotool)))
    }

    @Test func waylandWithOnlyXdotoolSaysItReachesOnlyXWaylandWindows() throws {
        let choice = try Self.choice(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"], installed: [.xdotool]).get()
        #expect(choice.typer == .xdotool)
        #expect(choice.note?.contains("XWayland") == true)
    }

    @Test func aMissingToolNamesThePackageToInstall() {
        guard case .failure(let failure) = Self.choice(["DISPLAY": ":0"], installed: []) else {
            Issue.record("chose a tool that is not installed")
            return
        }
        #expect(failure.description.contains("sudo apt install xdotool"))
        guard case .failure(let wayland) = Self.choice(["WAYLAND_DISPLAY": "wayland-1"], installed: []) else {
            Issue.record("chose a tool that is not installed")
            return
        }
        #expect(wayland.description.contains("sudo apt install wtype"))
    }

    @Test func noSessionAtAllIsSaidInWords() {
        guard case .failure(let failure) = Self.choice([:], installed: [.wtype, .xdotool]) else {
            Issue.record("chose a tool without a session")
            return
        }
        #expect(failure.description.contains("neither WAYLAND_DISPLAY nor DISPLAY"))
    }

    @Test func eachToolGetsItsOwnCommandLines() {
        #expect(DictationTyper.xdotool.commandLines(for: .text("-x")) == [["xdotool", "type", "--clearmodifiers", "--delay", "6", "--", "-x"]])
        #expect(DictationTyper.wtype.commandLines(for: .erase(2)) == [["wtype", "-s", "40", "-k", "BackSpace", "-k", "BackSpace"]])
        #expect(DictationTyper.ydotool.commandLines(for: .newLine) == [["ydotool", "key", "--delay", "0", "Enter"]])
        #expect(DictationTyper.xdotool.commandLines(for: .erase(0)) == [])
    }

    @Test func ydotoolSaysWhichCharactersItCannotTypeAndXdotoolThatItMayMissSome() {
        #expect(DictationTyper.ydotool.limitation(typing: "café")?.contains("é") == true)
        #expect(DictationTyper.ydotool.limitation(typing: "cafe") == nil)
        #expect(DictationTyper.xdotool.limitation(typing: "café")?.contains("misses") == true)
        #expect(DictationTyper.xdotool.limitation(typing: "cafe") == nil)
        #expect(DictationTyper.wtype.limitation(typing: "café") == nil)
    }

    @Test func theToolsGetAUTF8LocaleWhenTheSessionHasNone() {
        #expect(DictationTyper.environment(["LANG": "de_DE.UTF-8"]) == ["LANG": "de_DE.UTF-8"])
        #expect(DictationTyper.environment([:]) == ["LC_CTYPE": "C.UTF-8"])
        #expect(DictationTyper.environment(["LC_ALL": "C", "LANG": "en_US.UTF-8"]) == ["LANG": "en_US.UTF-8", "LC_CTYPE": "C.UTF-8"])
    }
}
