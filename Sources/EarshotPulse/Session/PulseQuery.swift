import CPulse

/// A libpulse request whose replies build up a `Value`, delivered to `completion` exactly once:
/// with the value, with libpulse's error, or with "connection terminated" when the server went
/// away before answering.
final class PulseQuery<Value>: PulseRequest {
    var value: Value
    /// What is being asked, for error messages: "list the sources".
    let operation: String
    private var completion: ((Result<Value, PulseError>) -> Void)?

    init(_ initial: Value, operation: String, completion: @escaping (Result<Value, PulseError>) -> Void) {
        self.value = initial
        self.operation = operation
        self.completion = completion
    }

    /// The query behind a userdata pointer handed to a libpulse callback.
    static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseQuery<Value>? {
        userdata.map { Unmanaged<PulseQuery<Value>>.fromOpaque($0).takeUnretainedValue() }
    }

    func succeed() { finish(.success(value)) }

    func fail(_ error: PulseError) { finish(.failure(error)) }

    /// Fails with what libpulse recorded on `context`.
    func fail(on context: OpaquePointer?) {
        fail(context.map { PulseError(lastErrorOf: $0, while: operation) } ?? PulseError(.badState, while: operation))
    }

    /// Issues the operation; a refusal is reported through `completion` at once.
    func start(on context: PulseContext, _ issue: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?) {
        guard let pointer = context.pointer, context.isReady else {
            fail(PulseError(.connectionRefused, while: operation))
            return
        }
        if !self.issue({ issue(pointer, $0) }) { fail(on: pointer) }
    }

    override func operationEnded() {
        fail(PulseError(.connectionTerminated, while: operation))
    }

    private func finish(_ result: Result<Value, PulseError>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }
}
