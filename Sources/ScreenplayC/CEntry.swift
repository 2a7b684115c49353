// The rules every C entry point follows: the main-thread check before
// anything is touched, failures as codes with a message per thread, and
// handles looked up in one table (never a pointer to memory the caller
// holds), so a released or foreign handle is an error, not a crash.
internal import CScreenplay
import Glibc

/// A failed C call: its code (SCREENPLAY_ERROR_*) and its message.
struct Failure: Error {
    let code: Int32
    let message: String

    init(_ code: Int32, _ message: String) {
        self.code = code
        self.message = message
    }

    static func null(_ function: String, _ argument: String) -> Failure {
        Failure(
            Int32(SCREENPLAY_ERROR_NULL_ARGUMENT),
            "\(function): `\(argument)` is NULL; pass a valid pointer (the address of a variable of the declared type, or a function)"
        )
    }
}

/// Each thread's last message, freed when the thread ends: a wrong-thread
/// call must be able to leave its message without touching the main thread's.
private let errorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
}()

/// An empty message for threads with no failure yet.
nonisolated(unsafe) private let noMessage: UnsafePointer<CChar> = UnsafePointer(strdup("")!)

func setLastError(_ message: String) {
    let old = pthread_getspecific(errorKey)
    pthread_setspecific(errorKey, strdup(message))
    free(old)
}

func lastError() -> UnsafePointer<CChar> {
    pthread_getspecific(errorKey).map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } ?? noMessage
}

/// Runs one C call on the main thread: the thread check comes first, so a
/// call from another thread touches no state; a thrown `Failure` becomes
/// its code and this thread's message.
func entry(_ function: String, _ body: @MainActor () throws(Failure) -> Void) -> Int32 {
    guard cscreenplay_is_main_thread() != 0 else {
        setLastError(
            "\(function) was called from a thread other than the process's main thread, where the app lives; call every screenplay_* function (but screenplay_last_error, screenplay_result_name and screenplay_version) on the main thread, and post work to it from other threads"
        )
        return Int32(SCREENPLAY_ERROR_WRONG_THREAD)
    }
    return MainActor.assumeIsolated {
        do throws(Failure) {
            try body()
            return Int32(SCREENPLAY_OK)
        } catch {
            setLastError(error.message)
            return error.code
        }
    }
}

/// Stores `value` through `pointer`, or fails naming the argument.
func store<T>(_ value: T, _ pointer: UnsafeMutablePointer<T>?, _ function: String, _ argument: String)
    throws(Failure)
{
    guard let pointer else { throw Failure.null(function, argument) }
    pointer.pointee = value
}

/// Stores a pair of numbers (a width and a height); neither pointer may be NULL.
func storePair(
    _ pair: (Int, Int), _ a: UnsafeMutablePointer<Int32>?, _ b: UnsafeMutablePointer<Int32>?, _ function: String,
    _ names: (String, String)
) throws(Failure) {
    guard let a else { throw Failure.null(function, names.0) }
    guard let b else { throw Failure.null(function, names.1) }
    a.pointee = Int32(clamping: pair.0)
    b.pointee = Int32(clamping: pair.1)
}

/// Reads a C string argument as UTF-8, or fails naming it.
func string(_ pointer: UnsafePointer<CChar>?, _ function: String, _ argument: String) throws(Failure) -> String {
    guard let pointer else { throw Failure.null(function, argument) }
    guard let text = String(validatingCString: pointer) else {
        throw Failure(
            Int32(SCREENPLAY_ERROR_INVALID_ARGUMENT),
            "\(function): `\(argument)` is not valid UTF-8; pass UTF-8 text (convert from other encodings with iconv)")
    }
    return text
}

/// Something a handle names.
@MainActor
protocol HandleObject: AnyObject {
    /// "screen", "scene"...: in messages.
    static var kind: String { get }
    /// What to do to get a valid handle of this kind, for messages.
    static var advice: String { get }
}

/// Every live handle. A handle's value is a number that is never reused
/// (the table's counter only grows), so a released handle stays unknown
/// forever, and no value is ever read as an address.
@MainActor
final class Handles {
    static let shared = Handles()
    private var objects: [UInt: any HandleObject] = [:]
    private var counter: UInt = 0

    /// A new handle for `object`. The low bits tag values as ours, so a
    /// small integer or an address passed by mistake is told apart.
    func add(_ object: any HandleObject) -> OpaquePointer {
        counter += 1
        let value = counter << 8 | 0x5c
        objects[value] = object
        return OpaquePointer(bitPattern: value)!
    }

    /// The object `handle` names, if it is a live handle of `T`.
    func get<T: HandleObject>(_ handle: OpaquePointer?, _: T.Type, _ function: String) throws(Failure) -> T {
        guard let handle else { throw Failure.null(function, T.kind) }
        let value = UInt(bitPattern: handle)
        if let object = objects[value] as? T { return object }
        let what: String
        if let object = objects[value] {
            let kind = type(of: object).kind
            let article = kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            what = "is \(article) \(kind) handle, not a \(T.kind) handle"
        } else if value & 0xff == 0x5c, value >> 8 <= counter {
            what = "was already released"
        } else {
            what = "was never made by libscreenplay (a stray or corrupted pointer?)"
        }
        throw Failure(
            Int32(SCREENPLAY_ERROR_INVALID_HANDLE), "\(function): the \(T.kind) handle \(handle) \(what); \(T.advice)")
    }

    /// Releases `handle`: every later use of it is an error.
    func remove(_ handle: OpaquePointer) {
        objects[UInt(bitPattern: handle)] = nil
    }
}
