import Foundation
import TestHarness
import XCTest

@testable import Presenter

/// The console's notes editor and what it writes into pdfpc's file.
final class NotesEditingTests: ScreenplayTestCase {
    func testEditorKeys() {
        var editor = NotesEditor(page: 0, text: "ab")
        func key(_ keysym: String, _ text: String = "", control: Bool = false) -> NotesEditor.Outcome {
            editor.key(keysym: keysym, text: text, control: control)
        }
        XCTAssertEqual(key("c", "c"), .edited)
        XCTAssertEqual(editor.text, "abc")
        XCTAssertEqual(key("Left"), .edited)
        XCTAssertEqual(key("BackSpace"), .edited)
        XCTAssertEqual(editor.withCaret, "a▏c")
        XCTAssertEqual(key("Delete"), .edited)
        XCTAssertEqual(key("Delete"), .unchanged, "nothing after the cursor")
        XCTAssertEqual(key("Return"), .edited)
        _ = key("x", "x")
        XCTAssertEqual(editor.text, "a\nx")
        XCTAssertEqual(key("Home"), .edited)
        XCTAssertEqual(editor.withCaret, "a\n▏x")
        XCTAssertEqual(key("End"), .edited)
        XCTAssertEqual(key("s", "s", control: true), .unchanged, "Ctrl+s types nothing")
        XCTAssertEqual(key("Tab", "\t"), .unchanged, "control characters are not typed")
        XCTAssertEqual(key("é", "é"), .edited)
        XCTAssertEqual(editor.text, "a\nxé")
        XCTAssertEqual(key("Escape"), .save)
        var empty = NotesEditor(page: 1, text: "")
        XCTAssertEqual(empty.key(keysym: "BackSpace", text: "", control: false), .unchanged)
    }

    /// A note written by the editor reads back identically, and members
    /// Screenplay does not use (and a page entry's own) survive.
    func testNotesWrittenBackKeepEverythingElse() throws {
        let dir = NSTemporaryDirectory() + "screenplay-notes-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/talk.pdfpc"
        try """
        {"pdfpcFormat":2,"duration":20,"savedSlide":3,"defaultTransition":"fade","x-tool":{"keep":true},
         "pages":[{"idx":0,"label":"1","overlay":0,"note":"old","x-page":7},
                  {"idx":3,"label":"3","overlay":0,"hidden":true}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let labels = ["1", "2", "2", "3"]
        try PdfpcWriter.setNote("new **first**", page: 0, pageLabels: labels, path: path)
        try PdfpcWriter.setNote("second step", page: 2, pageLabels: labels, path: path)
        func read() throws -> (file: PdfpcFile, json: [String: Any]) {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
            return (
                try PdfpcFile.parse(data, path: path, pageLabels: labels),
                try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            )
        }
        var (file, json) = try read()
        XCTAssertEqual(file.notes, [0: "new **first**", 2: "second step"])
        XCTAssertEqual(file.duration, 20)
        XCTAssertEqual(file.hidden, [3])
        XCTAssertEqual(json["savedSlide"] as? Int, 3)
        XCTAssertEqual(json["defaultTransition"] as? String, "fade")
        XCTAssertEqual((json["x-tool"] as? [String: Any])?["keep"] as? Bool, true)
        let pages = try XCTUnwrap(json["pages"] as? [[String: Any]])
        XCTAssertEqual(pages.map { $0["idx"] as? Int }, [0, 2, 3], "in page order")
        XCTAssertEqual(pages[0]["x-page"] as? Int, 7)
        XCTAssertEqual(pages[1]["label"] as? String, "2")
        XCTAssertEqual(pages[1]["overlay"] as? Int, 1, "the second page labelled 2")
        try PdfpcWriter.setNote("", page: 0, pageLabels: labels, path: path)
        (file, json) = try read()
        XCTAssertEqual(file.notes, [2: "second step"], "an empty note removes it")

        try "not json".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try PdfpcWriter.setNote("x", page: 0, pageLabels: labels, path: path)) { error in
            XCTAssertTrue("\(error)".contains("\(path): it is not a JSON object"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "not json", "left as it was")
        let fresh = dir + "/new.pdfpc"
        try PdfpcWriter.setNote("hello", page: 1, pageLabels: labels, path: fresh)
        XCTAssertEqual(
            try PdfpcFile.parse(XCTUnwrap(FileManager.default.contents(atPath: fresh)), path: fresh, pageLabels: labels)
                .notes, [1: "hello"])
    }
}
