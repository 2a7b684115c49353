// The texture soak: an hour of a playlist that makes new pictures all the
// time (four images, a PDF page and a shader, half a second each, with one
// image file rewritten every half minute so its reload brings pixels never
// seen before), watching the GL objects `play` holds. Textures were once
// kept until someone called releaseResources, and a picture at a freed
// picture's address could be drawn with the old texture; this is the
// long-run check that what a playlist drops leaves nothing on the GPU.
import Documents
import Foundation
import TestSupport

/// The GL objects of one `play` over the soak.
struct TextureTrend: Codable, Sendable {
    var minutes: Double
    /// Items first shown (proof-of-play `item` lines): how many pictures were made.
    var itemsShown: Int
    /// Image files rewritten during the run (each reload makes new pictures).
    var rewrites: Int
    /// (seconds, picture textures, shader programs, text blocks) of every `graphics` line.
    var series: [[Double]] = []
    /// Most picture textures held in the first ten minutes after warm-up, and in the last half.
    var earlyMaxTextures: Int?
    var lateMaxTextures: Int?
    var lateMaxPrograms: Int?
    var earlyMaxPrograms: Int?
    /// Flat: the last half never holds more than the early window did.
    var isFlat: Bool? {
        guard let earlyMaxTextures, let lateMaxTextures, let earlyMaxPrograms, let lateMaxPrograms else { return nil }
        return lateMaxTextures <= earlyMaxTextures && lateMaxPrograms <= earlyMaxPrograms
    }
}

/// The texture soak: an hour of a playlist that keeps making pictures, its GL objects watched.
struct TextureSoak: Benchmark {
    let context: BenchContext

    func run(minutes: Double) throws {
        let seconds = minutes * 60
        say("texture soak: play of images, a PDF page and a shader at 0.5 s each on sway, \(Int(seconds)) s")
        let sway = try SwayRig.start(outputs: [benchMode], timeout: 20)
        defer { sway.stop() }
        let images = (0..<4).map { workDirectory + "/texture-soak-\($0).png" }
        func writeImage(_ index: Int, seed: Int) throws {
            // A gradient that differs with every seed, so no two versions match.
            let (w, h) = (320, 180)
            var pixels = [UInt8](repeating: 0, count: w * h * 3)
            for y in 0..<h {
                for x in 0..<w {
                    let i = (y * w + x) * 3
                    pixels[i] = UInt8((x + seed * 37) & 0xff)
                    pixels[i + 1] = UInt8((y + seed * 11) & 0xff)
                    pixels[i + 2] = UInt8((index * 60 + seed) & 0xff)
                }
            }
            try RigImage(width: w, height: h, pixels: pixels).writePNG(to: images[index] + ".tmp")
            // Renamed into place, as a content system publishes a file: play never reads half of it.
            _ = rename(images[index] + ".tmp", images[index])
        }
        for i in images.indices { try writeImage(i, seed: i) }
        let deck = try SampleDeck.write(to: workDirectory)
        let playlist = workDirectory + "/texture-soak.json"
        let items = images.map { "{\"file\": \"\(($0 as NSString).lastPathComponent)\", \"duration\": 0.5}" }
        try """
        {"playlists": {"loop": [\(items.joined(separator: ", ")),
          {"file": "\(deck.pdf)", "pages": "2", "duration": 0.5},
          {"file": "\(shaderPath)", "duration": 0.5}]},
         "default": "loop"}
        """.write(toFile: playlist, atomically: true, encoding: .utf8)
        let play = try RunningProcess(
            screenplay, ["play", playlist, "--output", "HEADLESS-1", "--stats", "-"],
            environment: sway.clientEnvironment)
        defer { play.kill() }
        guard play.waitForLine(containing: "\"connect\"", timeout: 30) != nil else {
            throw RigError("texture soak: play did not connect: \(play.stderr.suffix(1500))")
        }
        let start = now()
        var rewrites = 0
        while now() - start < seconds, play.isRunning {
            Thread.sleep(forTimeInterval: 30)
            rewrites += 1
            try writeImage(rewrites % images.count, seed: 100 + rewrites)
        }
        guard play.isRunning else {
            throw RigError("texture soak: play exited after \(Int(now() - start)) s: \(play.stderr.suffix(1500))")
        }
        var trend = TextureTrend(minutes: (now() - start) / 60, itemsShown: 0, rewrites: rewrites)
        var index = 0
        for line in play.stdoutLines {
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let event = object["event"] as? String
            else { continue }
            if event == "item" { trend.itemsShown += 1 }
            guard event == "graphics", let textures = object["picture_textures"] as? Int,
                let programs = object["shader_programs"] as? Int, let texts = object["text_blocks"] as? Int
            else { continue }
            // A line every ten seconds from connect on.
            index += 1
            trend.series.append([Double(index * 10), Double(textures), Double(programs), Double(texts)])
        }
        let warmup = 60.0
        let early = trend.series.filter { $0[0] > warmup && $0[0] <= warmup + 600 }
        let late = trend.series.filter { $0[0] > seconds / 2 }
        if !early.isEmpty, !late.isEmpty {
            trend.earlyMaxTextures = Int(early.map { $0[1] }.max()!)
            trend.lateMaxTextures = Int(late.map { $0[1] }.max()!)
            trend.earlyMaxPrograms = Int(early.map { $0[2] }.max()!)
            trend.lateMaxPrograms = Int(late.map { $0[2] }.max()!)
        } else {
            results.errors.append("texture soak: too few graphics lines (\(trend.series.count)) to compare")
        }
        say(
            "texture soak: \(trend.itemsShown) items shown, \(rewrites) rewrites; picture textures early max \(trend.earlyMaxTextures.map(String.init) ?? "–"), late max \(trend.lateMaxTextures.map(String.init) ?? "–"); flat: \(trend.isFlat.map { $0 ? "yes" : "NO" } ?? "–")"
        )
        results.textures.append(trend)
    }
}

/// The texture soak's part of the report.
enum TextureReport {
    /// The texture soak's table for summary.md.
    static func markdown(_ trends: [TextureTrend]) -> String {
        guard !trends.isEmpty else { return "" }
        var md = "\n## GL objects over time (texture soak)\n\n"
        md += "`play` of four images, a PDF page and a shader at 0.5 s each, one image rewritten every 30 s; "
        md += "`--stats` `graphics` lines every 10 s. Early = the ten minutes after a one-minute warm-up; "
        md += "late = the second half. Flat: late never holds more than early.\n\n"
        md +=
            "| minutes | items shown | rewrites | picture textures early max → late max | shader programs early → late | flat? |\n"
        md += "|---:|---:|---:|---|---|---|\n"
        for t in trends {
            let textures =
                "\(t.earlyMaxTextures.map(String.init) ?? "–") → \(t.lateMaxTextures.map(String.init) ?? "–")"
            let programs =
                "\(t.earlyMaxPrograms.map(String.init) ?? "–") → \(t.lateMaxPrograms.map(String.init) ?? "–")"
            let flat = t.isFlat.map { $0 ? "yes" : "**no**" } ?? "–"
            md +=
                "| \(String(format: "%.1f", t.minutes)) | \(t.itemsShown) | \(t.rewrites) | \(textures) | \(programs) | \(flat) |\n"
        }
        return md
    }
}
