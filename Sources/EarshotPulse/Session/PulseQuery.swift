import CPulse

/// Something waiting on a libpulse operation. libpulse holds one retain on it from the moment the
/// operation is issued until the operation ends, however it ends: done, or cancelled because the
/// context went away (then `operationEnded` is the only call it gets).
class PulseRequest {
    /// Called on the mainloop thread once the operation is over.
    func operationEnded() {}

    /// Issues an operation through `issue`, which must pass the userdata it is given to libpulse.
    /// Returns false when libpulse refused to start it (nothing was retained then).
    final func issue(_ issue: (UnsafeMutableRawPointer) -> OpaquePointer?) -> Bool {
        let userdata = Unmanaged.passRetained(self).toOpaque()
        guard let operation = issue(userdata) else {
            Unmanaged<PulseRequest>.fromOpaque(userdata).release()
            return false
        }
        pa_operation_set_state_callback(operation, { operation, userdata in
            guard let operation, let userdata, pa_operation_get_state(operation) != PA_OPERATION_RUNNING else { return }
            let request = Unmanaged<PulseRequest>.fromOpaque(userdata)
            request.takeUnretainedValue().operationEnded()
            request.release()
        }, userdata)
        pa_operation_unref(operation)
        return true
    }
}

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

/// Helpers for `pa_operation` handles the engine does not wait on.
enum PulseOperation {
    /// Drops the caller's reference to a fire-and-forget operation (libpulse keeps its own until
    /// the operation is over).
    static func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }
}
