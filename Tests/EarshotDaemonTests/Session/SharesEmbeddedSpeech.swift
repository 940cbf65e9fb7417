import EarshotTestSupport
import Testing

/// A suite whose tests speak through the embedded engines holds ``EngineGate/embeddedSpeech``
/// shared while it runs, so that a test watching an engine's idle release runs apart from it.
struct SharesEmbeddedSpeech: SuiteTrait, TestScoping {
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite ? self : nil
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await EngineGate.embeddedSpeech.sharing { try await function() }
    }
}

extension Trait where Self == SharesEmbeddedSpeech {
    static var sharesEmbeddedSpeech: Self { SharesEmbeddedSpeech() }
}
