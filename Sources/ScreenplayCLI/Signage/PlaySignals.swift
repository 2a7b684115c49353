import Dispatch
import Foundation

/// `play`'s signals other than SIGINT and SIGTERM (those are
/// `Application.run`'s): SIGHUP asks for the playlist again, SIGUSR1 for
/// the record files afresh, and SIGPIPE is ignored.
@MainActor
final class PlaySignals {
    private let sources: [any DispatchSourceSignal]

    /// Installs the handlers; both run on the main queue.
    init(hangup: @escaping @MainActor () -> Void, reopen: @escaping @MainActor () -> Void) {
        signal(SIGHUP, SIG_IGN)
        // A reader of `--stats -` that goes away must not end playback: the
        // write fails with EPIPE instead, and that is logged.
        signal(SIGPIPE, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { hangup() } }
        source.resume()
        // SIGUSR1: logrotate's postrotate may ask for the files afresh
        // (each line checks by itself, so this is only for being prompt).
        signal(SIGUSR1, SIG_IGN)
        let rotate = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .main)
        rotate.setEventHandler { MainActor.assumeIsolated { reopen() } }
        rotate.resume()
        sources = [source, rotate]
    }
}
