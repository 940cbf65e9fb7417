import EarshotTestSupport
import Foundation

/// The built `earshot` run to completion in a chosen environment, as a person runs it.
struct ConfigCommandRun {
    var status: Int32
    var stdout: String
    var stderr: String

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "earshot is not built next to the tests: run `swift build` first" }
    }

    /// Runs `earshot arguments…` with `environment` (and PATH) only, in `directory`.
    static func earshot(_ arguments: [String], environment: [String: String], directory: SettingsScratchDirectory) throws -> ConfigCommandRun {
        guard let binary = BuiltProduct.url("earshot") else { throw NotBuilt() }
        let out = directory.path + "/stdout-\(UUID().uuidString)", err = directory.path + "/stderr-\(UUID().uuidString)"
        let child = try ChildProcess(binary.path, arguments, environment: environment, outputPath: out, errorPath: err)
        let status = child.wait()
        return ConfigCommandRun(
            status: status,
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        )
    }
}
