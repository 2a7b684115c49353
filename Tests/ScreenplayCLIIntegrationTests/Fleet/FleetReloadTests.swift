import Foundation
import TestSupport
import XCTest

extension PlayTests {
    /// An operator who has just published runs `screenplay ctl reload` on
    /// the box (or sends SIGHUP): the server is asked at once, not at the
    /// next poll an hour away, and the new playlist takes over.
    func testCtlReloadAsksTheServerAtOnce() throws {
        let rig = try startSway([.init(width: 320, height: 240)])
        let server = try startWebServer()
        let red = try png(0xff0000)
        try server.publish("lobby/media/red.png", red.data)
        try server.publish("lobby/panel.json", onePlaylist("media/red.png", sha256: red.sha256, bytes: red.data.count))
        let url = server.base + "/lobby/panel.json"
        let p = try CLI.start(
            ["play", "--cache", try mediaFolder() + "/cache", "--poll", "3600", url], environment: env(rig))
        XCTAssertTrue(shows(rig, 0xff0000), "red never showed: \(p.stderr)")
        let green = try png(0x00ff00)
        try server.publish("lobby/media/green.png", green.data)
        try server.publish(
            "lobby/panel.json", onePlaylist("media/green.png", sha256: green.sha256, bytes: green.data.count))
        let asked = server.accessLog.filter { $0.contains("GET /lobby/panel.json") }.count
        let reply = try CLI.run(["ctl", "reload"], environment: env(rig))
        XCTAssertEqual(reply.status, 0, reply.stderr)
        XCTAssertTrue(reply.stdout.contains("asking \(url) now"), reply.stdout)
        XCTAssertTrue(
            waitUntil(timeout: 10) { server.accessLog.filter { $0.contains("GET /lobby/panel.json") }.count > asked },
            "the server was not asked: \(server.accessLog.suffix(3))")
        XCTAssertTrue(shows(rig, 0x00ff00), "green never showed: \(p.stderr)")
        kill(p.pid, SIGHUP)
        XCTAssertTrue(
            waitUntil(timeout: 10) {
                server.accessLog.filter { $0.contains("GET /lobby/panel.json") }.count > asked + 1
            },
            "SIGHUP did not ask the server")
        XCTAssertTrue(p.isRunning)
        assertCleanStop(p)
    }
}
