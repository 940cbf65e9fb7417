import EarshotTestSupport
import Foundation
import Testing

/// `earshotd` needs no part of Foundation but FoundationEssentials: Foundation itself, its
/// internationalization and ICU would add 6 MB to its resident memory.
@Suite(.enabled(if: TestPeers.product("earshotd"), "earshotd is not built"), .tags(.live))
struct DaemonLibrariesTests {
    @Test func earshotdNeedsNoFoundationLibrary() throws {
        let binary = try #require(BuiltProduct.url("earshotd"))
        let bytes = try Data(contentsOf: binary)
        // A needed library is named in the dynamic string table, ending in a NUL.
        func needs(_ library: String) -> Bool { bytes.range(of: Data((library + "\0").utf8)) != nil }
        #expect(needs("libswiftCore.so"), "the search finds the libraries that are there")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!needs(library), "earshotd needs \(library): a module it links imports Foundation")
        }
    }
}
