import CLinuxEvents
import Dispatch
import Glibc
import Synchronization

/// Everything Screenplay does on the main thread arrives through this one
/// loop: the Wayland socket, timers (pacing, feedback grace, memory trim,
/// reconnect), "handle a batch soon", and wake-ups from other threads
/// (mpv's). Its whole state is one pollable file descriptor (an epoll set
/// holding the watched sockets, a timerfd armed to the next deadline and
/// an eventfd for wake-ups), so any loop can drive it: libdispatch's main
/// queue does (a read source calls `process()`; `Application.run()` and
/// apps that drain the main queue need nothing more), and so does an app's
/// own loop (SDL, a fixed-step simulation) that polls the descriptor and
/// calls `process()`. Modelled on foot's `fdm`: nothing blocks, nothing
/// nests a second loop.
@MainActor
package final class MainEventLoop {
    /// The loop of the main thread: one per process, as the main queue.
    package static let shared = MainEventLoop()

    /// Readable whenever `process()` has work: a watched descriptor is
    /// readable, a timer is due, or work was posted.
    package let fileDescriptor: Int32
    private let timerFD: Int32
    /// Wake-ups and work from any thread.
    private nonisolated var inbox: MainInbox { MainInbox.shared }
    private var watches: [Int32: (serial: UInt64, handler: () -> Void)] = [:]
    private var nextWatchSerial: UInt64 = 0
    private var timers: [UInt64: (deadlineNs: UInt64, body: () -> Void)] = [:]
    private var nextTimerID: UInt64 = 0
    private var soonQueue: [() -> Void] = []
    private var isProcessing = false
    private var armedDeadlineNs: UInt64?
    /// Drives the loop from libdispatch's main queue.
    private var mainQueueSource: (any DispatchSourceRead)?

    private init() {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let timer = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        let wake = MainInbox.shared.eventFD
        // Three descriptors at start-up; without them nothing of Screenplay
        // can run, and there is no caller to hand an error to yet.
        precondition(
            epoll >= 0 && timer >= 0 && wake >= 0,
            "Screenplay cannot make its event loop (epoll, timerfd, eventfd): \(String(cString: strerror(errno))); raise the open-file limit (ulimit -n)"
        )
        fileDescriptor = epoll
        timerFD = timer
        Self.add(timer, to: epoll)
        Self.add(wake, to: epoll)
        attachToMainQueue()
    }

    /// Has libdispatch's main queue drive the loop: a read source on its
    /// descriptor calls `process()`. Idempotent.
    package func attachToMainQueue() {
        guard mainQueueSource == nil else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { MainEventLoop.shared.process() } }
        source.resume()
        mainQueueSource = source
    }

    /// Ends the read source of `attachToMainQueue()`, for a caller that
    /// polls the descriptor itself (`MainThreadRunner`). Idempotent.
    package func detachFromMainQueue() {
        mainQueueSource?.cancel()
        mainQueueSource = nil
    }

    private static func add(_ fd: Int32, to epoll: Int32) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        _ = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
    }

    // MARK: sources

    /// Calls `onReadable` from `process()` while `fd` is readable (or hung
    /// up: the handler finds out by reading). Unwatch before closing `fd`.
    /// Returns the watch, which `unwatch` takes (so it is not discardable:
    /// a watch dropped could never be ended).
    ///
    /// Watching a descriptor that is already watched replaces its handler
    /// and checks the registration with one `EPOLL_CTL_MOD`: when the
    /// descriptor was closed behind the loop's back and its number handed
    /// to a new file (GLib's sources do this), epoll forgot it and answers
    /// ENOENT, and the new file is added.
    package func watch(_ fd: Int32, onReadable: @escaping () -> Void) -> Watch {
        nextWatchSerial &+= 1
        let watch = Watch(fd: fd, serial: nextWatchSerial)
        guard watches.updateValue((watch.serial, onReadable), forKey: fd) != nil else {
            Self.add(fd, to: fileDescriptor)
            return watch
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        if epoll_ctl(fileDescriptor, EPOLL_CTL_MOD, fd, &event) != 0, errno == ENOENT {
            Self.add(fd, to: fileDescriptor)
        }
        return watch
    }

    /// Ends `watch`, unless its descriptor number was watched again since,
    /// by its owner or by another: a number GLib closed unannounced can
    /// belong to the Wayland socket by the time GLib's loop lets it go, and
    /// that socket must stay watched.
    package func unwatch(_ watch: Watch) {
        guard watches[watch.fd]?.serial == watch.serial else { return }
        watches[watch.fd] = nil
        _ = epoll_ctl(fileDescriptor, EPOLL_CTL_DEL, watch.fd, nil)
    }

    /// Runs `body` in this pass of `process()` when called from inside
    /// one, else in the next.
    package func soon(_ body: @escaping () -> Void) {
        soonQueue.append(body)
        if !isProcessing { inbox.wake() }
    }

    /// Runs `body` once, `delayNs` from now (CLOCK_MONOTONIC). Returns an id
    /// for `cancel`.
    @discardableResult
    package func after(ns delayNs: UInt64, _ body: @escaping () -> Void) -> UInt64 {
        nextTimerID &+= 1
        timers[nextTimerID] = (Self.nowNs() &+ delayNs, body)
        if !isProcessing { armTimer() }
        return nextTimerID
    }

    package func cancel(_ timer: UInt64) { timers[timer] = nil }

    /// The earliest timer's deadline (CLOCK_MONOTONIC nanoseconds), nil when
    /// none is set.
    package var nextDeadlineNs: UInt64? { timers.values.map(\.deadlineNs).min() }

    /// How long a `poll` may wait before `process()` is due by a timer, in
    /// milliseconds rounded up: -1 (wait for the descriptor) when no timer
    /// is set, else at most `limit` when one is given.
    package func pollTimeoutMilliseconds(atMost limit: Int32?) -> Int32 {
        var timeout: Int32 = -1
        if let deadline = nextDeadlineNs {
            let now = Self.nowNs()
            timeout = deadline <= now ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)
        }
        guard let limit, limit >= 0 else { return timeout }
        return timeout < 0 ? limit : min(timeout, limit)
    }

    // MARK: processing

    /// Does everything that is ready, without blocking: posted work, due
    /// timers, readable descriptors, then work those asked for "soon".
    /// Ignored when called from inside itself.
    package func process() {
        guard !isProcessing else { return }
        isProcessing = true
        defer {
            isProcessing = false
            armTimer()
        }
        var ready = [epoll_event](repeating: epoll_event(), count: 16)
        let count = epoll_wait(fileDescriptor, &ready, Int32(ready.count), 0)
        let events = ready.prefix(Int(max(0, count)))
        // The timerfd and the eventfd are read only when epoll says so: a
        // pass per wake-up, and a web page's frame takes two or three.
        if events.contains(where: { $0.data.fd == timerFD }) {
            var counter: UInt64 = 0
            _ = read(timerFD, &counter, 8)
        }
        inbox.drain(reading: events.contains(where: { $0.data.fd == inbox.eventFD }))
        for event in events {
            let fd = event.data.fd
            if fd != timerFD, fd != inbox.eventFD { watches[fd]?.handler() }
        }
        runDueTimers()
        // Work asked for so far (a batch to handle) runs now; work it asks
        // for in turn waits for the next pass, as a main-queue block posted
        // from a block would, so a scene that redraws from its own draw
        // cannot keep this call from returning to the caller's loop.
        let work = soonQueue
        soonQueue.removeAll()
        for body in work { body() }
        if !soonQueue.isEmpty { inbox.wake() }
    }

    private func runDueTimers() {
        let now = Self.nowNs()
        let due = timers.filter { $0.value.deadlineNs <= now }.sorted { $0.value.deadlineNs < $1.value.deadlineNs }
        for (id, timer) in due where timers.removeValue(forKey: id) != nil { timer.body() }
    }

    /// Keeps the timerfd on the earliest deadline, so the descriptor turns
    /// readable when it passes.
    private func armTimer() {
        let deadline = nextDeadlineNs
        guard deadline != armedDeadlineNs else { return }
        armedDeadlineNs = deadline
        var spec = itimerspec()
        if let deadline {
            // 0 disarms: a deadline at time 0 is long past, so 1 ns fires at once.
            let at = max(deadline, 1)
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
        }
        _ = timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// CLOCK_MONOTONIC now, in nanoseconds.
    package nonisolated static func nowNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

/// Work posted to the main loop from any thread: queued under a lock, and
/// the loop's eventfd written so whoever polls the loop wakes up.
package final class MainInbox: Sendable {
    /// The main loop's inbox, for any thread.
    package static let shared = MainInbox()
    let eventFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    private let pending = Mutex<[@Sendable @MainActor () -> Void]>([])

    /// Runs `body` on the main thread in the loop's next `process()`.
    package func post(_ body: @escaping @Sendable @MainActor () -> Void) {
        pending.withLock { $0.append(body) }
        wake()
    }

    /// Makes the loop's descriptor readable.
    func wake() {
        var one: UInt64 = 1
        _ = write(eventFD, &one, 8)
    }

    /// Runs the work posted so far; `reading`: the eventfd was seen
    /// readable and is reset (work posted later writes it again).
    @MainActor
    func drain(reading: Bool) {
        if reading {
            var counter: UInt64 = 0
            _ = read(eventFD, &counter, 8)
        }
        let work = pending.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
        for body in work { body() }
    }
}

/// One watch of a descriptor by ``MainEventLoop/watch(_:onReadable:)``: the
/// number and which watch of it this is, so a component ending its watch
/// never ends another's on a reused number.
package struct Watch: Hashable, Sendable {
    package let fd: Int32
    let serial: UInt64
}
