// Test documents that are easier to build than to commit.
import Foundation

/// PDFs built byte by byte for tests.
public enum TestPDF {
    /// A PDF whose trailer names a standard-security /Encrypt dictionary whose
    /// /U entry the empty password does not match: poppler asks for a password.
    public static var encrypted: [UInt8] {
        let o = String(repeating: "1", count: 64)
        let u = String(repeating: "2", count: 64)
        var body = "%PDF-1.4\n"
        var offsets: [Int] = []
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
            "<< /Filter /Standard /V 1 /R 2 /O <\(o)> /U <\(u)> /P -4 >>",
        ]
        for (i, object) in objects.enumerated() {
            offsets.append(body.utf8.count)
            body += "\(i + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = body.utf8.count
        body += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { body += String(format: "%010d 00000 n \n", offset) }
        body +=
            "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R /Encrypt 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(body.utf8)
    }
}
