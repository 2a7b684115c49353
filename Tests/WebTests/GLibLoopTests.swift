import CGLib
import EventLoop
import Foundation
import Glibc
import TestHarness
import Web
import XCTest

/// WebKit's GLib context pumped from the main event loop, with a plain GLib
/// source standing in for WebKit's: what GLib lets go must not take another
/// component's descriptor with it.
final class GLibLoopTests: ScreenplayTestCase {
    /// GLib closes descriptors without telling the loop; the lowest free
    /// number goes to the next file opened, which after a compositor restart
    /// is the new Wayland socket. The pump that notices GLib's source is gone
    /// must leave the socket's watch alone, or the display never reads again.
    func testANumberGLibLetGoStaysWatchedForItsNewOwner() throws {
        try MainActor.assumeIsolated {
            let loop = MainEventLoop.shared
            let glib = try Self.pipePair()
            defer { close(glib.write) }
            let heard = GLibHeard()
            let box = Unmanaged.passRetained(heard)
            defer { box.release() }
            let channel = g_io_channel_unix_new(glib.read)
            let sourceID = g_io_add_watch(
                channel, G_IO_IN,
                { _, _, data in
                    let heard = Unmanaged<GLibHeard>.fromOpaque(data!).takeUnretainedValue()
                    heard.count += 1
                    return 1
                }, box.toOpaque())
            GLibLoop.shared.kick()
            var byte: UInt8 = 1
            _ = write(glib.write, &byte, 1)
            Self.drive(loop) { heard.count > 0 }
            XCTAssertGreaterThan(heard.count, 0, "GLib's source ran from the main event loop")
            _ = read(glib.read, &byte, 1)

            // GLib lets its descriptor go, unannounced, and the number is
            // handed to another file (the lowest free number; dup2 makes sure).
            g_source_remove(sourceID)
            g_io_channel_unref(channel)
            let number = glib.read
            close(glib.read)
            let socket = try Self.pipePair()
            defer { close(socket.write) }
            if socket.read != number {
                XCTAssertEqual(dup2(socket.read, number), number)
                close(socket.read)
            }
            defer { close(number) }
            var reads = 0
            let watch = loop.watch(number) {
                var byte: UInt8 = 0
                _ = read(number, &byte, 1)
                reads += 1
            }
            defer { loop.unwatch(watch) }

            // GLib's next pump finds its source gone.
            GLibLoop.shared.kick()
            Self.drive(loop, passes: 3)
            _ = write(socket.write, &byte, 1)
            Self.drive(loop) { reads > 0 }
            XCTAssertEqual(reads, 1, "the new owner of descriptor \(number) still hears it after GLib's pump")
        }
    }

    private static func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return (fds[0], fds[1])
    }

    /// Polls the loop's descriptor and processes until `condition` or 2 s.
    @MainActor
    private static func drive(_ loop: MainEventLoop, until condition: () -> Bool) {
        let end = Date().addingTimeInterval(2)
        while !condition(), Date() < end {
            var descriptor = pollfd(fd: loop.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
            loop.process()
        }
    }

    @MainActor
    private static func drive(_ loop: MainEventLoop, passes: Int) {
        for _ in 0..<passes {
            var descriptor = pollfd(fd: loop.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 20)
            loop.process()
        }
    }
}

private final class GLibHeard {
    var count = 0
}
