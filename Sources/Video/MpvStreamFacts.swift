/// What mpv says about the stream it plays, kept as its properties change:
/// the decoder and audio output in use, the codec, the audio track, and
/// the pictures dropped.
package struct MpvStreamFacts: Sendable {
    /// Frames mpv dropped (display sync skipping frames, or a late VO).
    package private(set) var framesDropped = 0
    /// `hwdec-current`: the hardware decoder in use, "no" for software.
    package private(set) var hardwareDecoder = ""
    /// `current-ao`: the audio output mpv opened; empty when none.
    package private(set) var audioOutput = ""
    /// `aid`: the audio track selected ("no" without `audio`).
    package private(set) var audioTrack = ""
    package private(set) var codec = ""
    private var decoderDrops = 0
    private var outputDrops = 0

    /// Takes property `name`'s new value when it is one of these: nil when
    /// it is not, else whether what an owner shows (decoder, audio output)
    /// changed.
    mutating func take(_ name: String, _ value: MpvValue) -> Bool? {
        switch (name, value) {
        case let ("frame-drop-count", .int(count)):
            framesDropped += Self.increase(from: &outputDrops, to: Int(count))
        case let ("decoder-frame-drop-count", .int(count)):
            framesDropped += Self.increase(from: &decoderDrops, to: Int(count))
        case let ("hwdec-current", .string(text)):
            hardwareDecoder = text
            return true
        case ("hwdec-current", .none):
            hardwareDecoder = ""
        case let ("current-ao", .string(text)):
            audioOutput = text
            return true
        case ("current-ao", .none):
            audioOutput = ""
        case let ("aid", .string(text)):
            audioTrack = text
        case let ("video-codec", .string(text)):
            codec = text
        default:
            return nil
        }
        return false
    }

    /// mpv's drop counters start again at 0 each time the loop restarts
    /// the file; the total keeps counting.
    private static func increase(from last: inout Int, to count: Int) -> Int {
        defer { last = count }
        return count >= last ? count - last : count
    }
}
