import Foundation
import TestHarness
import TestSupport
import XCTest

/// One run of scripts/docs.sh per `swift test` run (`RunShared`), in a
/// scratch directory: it builds Screenplay's symbol graph, checks every
/// public symbol is documented and writes HTML. Its exit status and log are
/// kept beside the HTML for the tests of the run's other processes.
enum DocsBuild {
    struct Outcome: Sendable {
        var directory: String
        var status: Int32
        var timedOut: Bool
        var log: String
        var html: String { directory + "/html" }
        var symbolGraphs: String { directory + "/symbol-graphs/Screenplay" }
    }

    static let outcome: Result<Outcome, CheckoutError> = {
        do {
            let directory = try RunShared.directory("docs") { directory in
                let result = try runProcess(
                    PackageCheckout.root + "/scripts/docs.sh",
                    [
                        "--out", directory + "/html", "--symbol-graphs", directory + "/symbol-graphs",
                        "--scratch-path", directory + "/build",
                    ], timeout: 1200, directory: PackageCheckout.root)
                // The build is hundreds of MB; the tests read only the HTML and the graphs (a few MB).
                try? FileManager.default.removeItem(atPath: directory + "/build")
                try "\(result.status) \(result.timedOut)".write(
                    toFile: directory + "/status", atomically: true, encoding: .utf8)
                try (result.stdout + result.stderr).write(toFile: directory + "/log", atomically: true, encoding: .utf8)
            }
            let status = try String(contentsOfFile: directory + "/status", encoding: .utf8).split(separator: " ")
            let log = try String(contentsOfFile: directory + "/log", encoding: .utf8)
            return .success(
                Outcome(
                    directory: directory, status: Int32(status.first ?? "") ?? -1, timedOut: status.last == "true",
                    log: log))
        } catch let error as CheckoutError {
            return .failure(error)
        } catch {
            return .failure(CheckoutError("scripts/docs.sh could not run: \(error)"))
        }
    }()
}

/// The API documentation builds with the toolchain's docc, and every public
/// symbol of Screenplay, Presenter, Signage and Fleet has a documentation comment (scripts/docs.sh fails otherwise).
final class DocumentationTests: ScreenplayTestCase {
    func testDocsScriptBuildsHTMLWithEveryPublicSymbolDocumented() throws {
        let docs = try DocsBuild.outcome.get()
        XCTAssertFalse(docs.timedOut, "scripts/docs.sh timed out:\n\(docs.log)")
        XCTAssertEqual(docs.status, 0, "scripts/docs.sh failed:\n\(docs.log)")
        let landing = docs.html + "/documentation/screenplay/index.html"
        XCTAssertTrue(FileManager.default.fileExists(atPath: landing), "no \(landing):\n\(docs.log)")
        // The three articles of the catalog are in the output.
        for article in ["showingcontentonanexternalscreen", "displaylinksandpacing", "runningunattended"] {
            let data = docs.html + "/data/documentation/screenplay/\(article).json"
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: data), "the article \(article) is missing from the HTML")
        }
    }
}
