// Memory told honestly: RSS counts every shared library page a process maps (most of a
// Mesa client's RSS is libLLVM's and Mesa's code, shared with every other client), so the
// bench also reports proportional set size and private memory from /proc/PID/smaps_rollup.
import Foundation

/// /proc/PID/smaps_rollup of one process at one moment, in KiB.
struct MemoryBreakdown: Codable, Sendable {
    var rssKiB: Int
    /// Proportional set size: each shared page divided among its users.
    var pssKiB: Int
    /// Pages mapped by this process alone (Private_Clean + Private_Dirty).
    var privateKiB: Int
    /// Anonymous memory (heap, stacks, GL buffers in system memory).
    var anonymousKiB: Int
    /// File-backed pages shared with other processes (library code).
    var sharedKiB: Int

    /// Reads `pid`'s smaps_rollup, or nil if it is gone or unreadable.
    static func read(pid: Int32) -> MemoryBreakdown? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2, words[0].hasSuffix(":"), let value = Int(words[1]) else { continue }
            fields[String(words[0].dropLast())] = value
        }
        guard let rss = fields["Rss"], let pss = fields["Pss"] else { return nil }
        return MemoryBreakdown(
            rssKiB: rss, pssKiB: pss, privateKiB: (fields["Private_Clean"] ?? 0) + (fields["Private_Dirty"] ?? 0),
            anonymousKiB: fields["Anonymous"] ?? 0,
            sharedKiB: (fields["Shared_Clean"] ?? 0) + (fields["Shared_Dirty"] ?? 0))
    }
}

/// RSS in its two parts from /proc/PID/status, cheap enough to read every second.
struct ResidentParts {
    /// RssAnon: heap, stacks, anonymous buffers.
    var anonymousKiB: Int
    /// RssFile + RssShmem: pages of mapped files (library code) and shared memory.
    var fileAndSharedKiB: Int

    /// Reads `pid`'s status, or nil if it is gone.
    static func read(pid: Int32) -> ResidentParts? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var fields: [Substring: Int] = [:]
        // "RssAnon:\t   74040 kB": a tab after the colon, then spaces.
        for line in text.split(separator: "\n") where line.hasPrefix("Rss") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, let value = Int(words[1]) { fields[words[0].dropLast()] = value }
        }
        guard let anon = fields["RssAnon"], let file = fields["RssFile"] else { return nil }
        return ResidentParts(anonymousKiB: anon, fileAndSharedKiB: file + (fields["RssShmem"] ?? 0))
    }
}

/// The memory sections of the report: peak RSS by outputs, and the
/// smaps_rollup breakdown against swaybg.
enum MemoryReport: MarkdownFormatting {
    /// Peak RSS of each program and content by outputs.
    static func peakRSS(_ r: BenchResults) -> String {
        var md = "\n## Peak RSS (VmHWM, MiB)\n\n"
        md +=
            "Colour: outputs hot-plugged one by one in the first hot-plug round (HWM only grows, outputs are only added). "
        md += "Shader: the pacing/scaling runs, which start with all their outputs.\n\n"
        let counts = Set(r.memory.map(\.outputs)).sorted()
        let columns = [("screenplay", "color"), ("screenplay", "shader"), ("swaybg", "color")]
        md += "| outputs | " + columns.map { "\($0.0) \($0.1)" }.joined(separator: " | ") + " |\n"
        md += "|---:|" + columns.map { _ in "---:" }.joined(separator: "|") + "|\n"
        for count in counts {
            let cells = columns.map { column in
                opt(
                    r.memory.first { $0.program == column.0 && $0.content == column.1 && $0.outputs == count }?
                        .peakRSSMiB)
            }
            md += "| \(count) | " + cells.joined(separator: " | ") + " |\n"
        }
        return md
    }

    /// RSS, PSS, private and anonymous memory of Screenplay and swaybg with
    /// one and with the most outputs, each beside its peer with the ratio.
    static func breakdown(_ r: BenchResults) -> String {
        let points = r.memory.filter { $0.content == "color" && $0.breakdown != nil }
        guard !points.isEmpty else { return "" }
        var md = "\n## Memory: RSS, proportional and private (MiB)\n\n"
        md += "From /proc/PID/smaps_rollup right after each output was added (first hot-plug round, `present color` "
        md +=
            "against `swaybg -c`). RSS counts every page of every shared library mapped; PSS divides shared pages among "
        md +=
            "the processes using them; private = Private_Clean + Private_Dirty (pages no other process maps); anonymous = "
        md +=
            "heap, stacks and buffers. Shared = file-backed pages other processes map too (libLLVM, Mesa, the Swift runtime).\n\n"
        md += "| outputs | measure | screenplay | swaybg | ratio |\n|---:|---|---:|---:|---:|\n"
        let counts = Set(points.map(\.outputs)).sorted()
        let shown = Array(Set([counts.first, counts.last].compactMap { $0 })).sorted()
        for count in shown {
            guard let mine = points.first(where: { $0.program == "screenplay" && $0.outputs == count })?.breakdown
            else { continue }
            let peer = points.first { $0.program == "swaybg" && $0.outputs == count }?.breakdown
            for (name, value) in [
                ("RSS", \MemoryBreakdown.rssKiB), ("PSS", \.pssKiB), ("private", \.privateKiB),
                ("anonymous", \.anonymousKiB), ("shared", \.sharedKiB),
            ] {
                let a = Double(mine[keyPath: value]) / 1024
                let b = peer.map { Double($0[keyPath: value]) / 1024 }
                md += "| \(count) | \(name) | \(n(a)) | \(opt(b)) | \(opt(b.flatMap { $0 > 0 ? a / $0 : nil })) |\n"
            }
        }
        return md
    }
}
