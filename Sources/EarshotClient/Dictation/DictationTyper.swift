/// The program that types into the focused window, and the command lines that do each step.
public enum DictationTyper: String, CaseIterable, Sendable {
    /// Wayland's virtual-keyboard protocol: wlroots compositors (sway, Hyprland, river, labwc);
    /// not GNOME's Mutter. It sends its own keymap, so any layout and any Unicode text types.
    case wtype
    /// The kernel's uinput: any session, even a console; needs access to /dev/uinput. It presses
    /// the keys of a US layout, so only ASCII types right, and only with a US layout active.
    case ydotool
    /// X11's XTEST: X11 sessions and XWayland windows. Characters beyond ASCII are typed by
    /// remapping a spare key for a moment, which an application sometimes misses.
    case xdotool

    /// The Debian (and Ubuntu, Fedora, Arch) package that installs it.
    public var package: String { rawValue }

    /// The command lines (program first) that perform `step`.
    public func commandLines(for step: DictationText.Step) -> [[String]] {
        switch (self, step) {
        case (.wtype, .text(let text)): [Self.wtypeAfterAMoment + ["--", text]]
        case (.wtype, .newLine): [Self.wtypeAfterAMoment + ["-k", "Return"]]
        case (.wtype, .erase(let count)): count > 0 ? [Self.wtypeAfterAMoment + Array(repeating: ["-k", "BackSpace"], count: count).flatMap { $0 }] : []
        case (.ydotool, .text(let text)): [["ydotool", "type", "--delay", "0", "--key-delay", "6", text]]
        case (.ydotool, .newLine): [["ydotool", "key", "--delay", "0", "Enter"]]
        case (.ydotool, .erase(let count)): count > 0 ? [["ydotool", "key", "--delay", "0", "--key-delay", "6", "--repeat", String(count), "BackSpace"]] : []
        case (.xdotool, .text(let text)): [["xdotool", "type", "--clearmodifiers", "--delay", "6", "--", text]]
        case (.xdotool, .newLine): [["xdotool", "key", "--clearmodifiers", "Return"]]
        case (.xdotool, .erase(let count)): count > 0 ? [["xdotool", "key", "--clearmodifiers", "--delay", "6"] + Array(repeating: "BackSpace", count: count)] : []
        }
    }

    /// `environment` for the tool: a UTF-8 character type when the session's locale has none
    /// (wtype refuses text it cannot decode: "Failed to deencode input argv").
    public static func environment(_ environment: [String: String]) -> [String: String] {
        let characterType = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? ""
        let lowered = characterType.lowercased()
        guard !lowered.contains("utf-8"), !lowered.contains("utf8") else { return environment }
        var adjusted = environment
        adjusted["LC_ALL"] = nil
        adjusted["LC_CTYPE"] = "C.UTF-8"
        return adjusted
    }

    /// wtype, waiting a moment before its first key: a key sent at once after its virtual
    /// keyboard appears can be lost while the compositor is still giving the focused window that
    /// keyboard (seen with sway 1.7, GTK and XWayland windows alike, when the seat had no other).
    static let wtypeAfterAMoment = ["wtype", "-s", "40"]

    /// What this tool may get wrong in `text`, in words, or `nil` when it types all of it surely.
    public func limitation(typing text: String) -> String? {
        let foreign = Set(text.unicodeScalars.filter { !$0.isASCII }.map(Character.init))
        guard !foreign.isEmpty else { return nil }
        switch self {
        case .wtype:
            return nil
        case .ydotool:
            return "ydotool presses the keys of a US keyboard and cannot type " + String(foreign.sorted()) + "; use wtype (Wayland) or xdotool (X11) for such text."
        case .xdotool:
            return "xdotool types characters beyond ASCII by remapping a spare key for each one, and an application busy at that moment misses or mistypes some (about one line in twenty of accented text in a Tk window): check such text."
        }
    }

    /// What to tell a person whose typing tool failed, after the tool's own words.
    public var advice: String {
        switch self {
        case .wtype:
            "wtype needs a compositor with the virtual-keyboard protocol (sway, Hyprland, river, labwc; not GNOME): on GNOME use --typer ydotool."
        case .ydotool:
            "ydotool needs write access to /dev/uinput: run ydotoold as root, or give your user the input group (a udev rule), and log in again."
        case .xdotool:
            "xdotool needs an X11 display (DISPLAY) and types only into X11 or XWayland windows."
        }
    }

    /// Said when the program is not installed.
    public var notInstalled: String {
        "\(rawValue) is not installed: install the package \(package) (sudo apt install \(package)), or choose another tool with --typer."
    }
}

/// Which typing tool suits the session: wtype on Wayland (ydotool on GNOME, whose compositor
/// lacks the virtual-keyboard protocol), xdotool on X11, ydotool where neither display is set.
public struct DictationTyperChoice: Equatable, Sendable {
    public var typer: DictationTyper
    /// Something the person should know about the choice, or `nil`.
    public var note: String?

    public init(typer: DictationTyper, note: String? = nil) {
        self.typer = typer
        self.note = note
    }

    /// Why no tool could be chosen, in words.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Chooses from the session's variables (`WAYLAND_DISPLAY`, `DISPLAY`, `XDG_SESSION_TYPE`,
    /// `XDG_CURRENT_DESKTOP`) and the tools `isInstalled` finds.
    public static func choose(
        environment: [String: String], isInstalled: (DictationTyper) -> Bool
    ) -> Result<DictationTyperChoice, Failure> {
        let session = environment["XDG_SESSION_TYPE"]?.lowercased()
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || session == "wayland"
        let x11 = !(environment["DISPLAY"] ?? "").isEmpty
        let gnome = (environment["XDG_CURRENT_DESKTOP"] ?? "").lowercased().split(separator: ":").contains("gnome")
        if wayland {
            let preferred: [DictationTyper] = gnome ? [.ydotool, .wtype] : [.wtype, .ydotool]
            if let typer = preferred.first(where: isInstalled) { return .success(DictationTyperChoice(typer: typer)) }
            if x11, isInstalled(.xdotool) {
                return .success(DictationTyperChoice(
                    typer: .xdotool,
                    note: "Neither wtype nor ydotool is installed: xdotool types only into XWayland windows. Install \(gnome ? "ydotool" : "wtype") to type into every window."
                ))
            }
            let wanted = gnome ? "ydotool (GNOME's compositor lacks the virtual keyboard wtype needs)" : "wtype (or ydotool)"
            return .failure(Failure(description: "Dictation types with \(wanted) in a Wayland session, and none is installed: sudo apt install \(gnome ? "ydotool" : "wtype")."))
        }
        if x11 || session == "x11" {
            if isInstalled(.xdotool) { return .success(DictationTyperChoice(typer: .xdotool)) }
            if isInstalled(.ydotool) { return .success(DictationTyperChoice(typer: .ydotool)) }
            return .failure(Failure(description: "Dictation types with xdotool in an X11 session, and it is not installed: sudo apt install xdotool."))
        }
        if isInstalled(.ydotool) {
            return .success(DictationTyperChoice(typer: .ydotool, note: "No graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set): typing with ydotool."))
        }
        return .failure(Failure(
            description: "No graphical session to type into: neither WAYLAND_DISPLAY nor DISPLAY is set. Run dictation from your desktop session, or choose a tool with --typer."
        ))
    }
}
