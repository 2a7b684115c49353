/// mpv's error lines read during the current pass of a video, to say why
/// a pass fell short. The last line mpv logged is often not about the
/// file at all: hardware decoder probing logs "Could not dynamically load
/// CUDA" at every load on a machine without NVIDIA's driver, and quoting
/// that as the reason for a truncated file sends the reader the wrong way.
struct PassErrors {
    /// Enough for the first symptoms of a pass; a damaged file can log an
    /// error per frame, and the later ones are consequences.
    private static let kept = 16
    private var lines: [(readAt: Double, text: String)] = []

    /// mpv logged `text` at error level; read at `readAt` (monotonic seconds).
    mutating func heard(_ text: String, at readAt: Double) {
        guard lines.count < Self.kept else { return }
        lines.append((readAt, text))
    }

    /// A pass started no earlier than `notBefore`: lines read before then
    /// belong to the load or an earlier pass.
    mutating func passStarted(notBefore: Double) {
        lines.removeAll { $0.readAt < notBefore }
    }

    /// The line that says most about the file: the demuxer's (it reads the
    /// file, and says "partial file" for a cut-off one), else the pass's
    /// first error; nil when the pass logged none.
    var telling: String? {
        (lines.first { $0.text.contains("demux") } ?? lines.first)?.text
    }
}
