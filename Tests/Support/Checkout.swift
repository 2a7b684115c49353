import Foundation

/// The checkout the tests are in: the first folder above this file that
/// holds Package.swift, so a test keeps finding `contrib/` and `Examples/`
/// wherever its file is moved within the tests.
public let checkoutRoot: String = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            return folder.path
        }
        folder = folder.deletingLastPathComponent()
    }
    preconditionFailure("no Package.swift above \(#filePath): the tests must run from a checkout")
}()
