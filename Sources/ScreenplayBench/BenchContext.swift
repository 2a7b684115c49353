// What every benchmark receives from the runner, and the protocol through which a
// benchmark's own type reaches it.
import Foundation
import TestSupport

/// The run's settings, the folder for its files, the screenplay binary, the
/// results the benchmarks fill and the progress line; and the content files
/// several benchmarks show, written once on first use.
final class BenchContext {
    let settings: BenchSettings
    let screenplay: String
    let workDirectory: String
    var results: BenchResults
    private let started = now()

    init(settings: BenchSettings, screenplay: String, workDirectory: String, info: RunInfo) {
        self.settings = settings
        self.screenplay = screenplay
        self.workDirectory = workDirectory
        results = BenchResults(run: info)
    }

    /// Prints progress to stderr (stdout stays free for the summary).
    func say(_ text: String) {
        FileHandle.standardError.write(Data("[bench \(String(format: "%6.1f", now() - started)) s] \(text)\n".utf8))
    }

    /// A plasma: a few sines per pixel, enough work to show rendering cost
    /// without swamping Mesa's software rasteriser on two cores.
    lazy var shaderPath: String = {
        let path = workDirectory + "/plasma.frag"
        let source = """
            void mainImage(out vec4 fragColor, in vec2 fragCoord) {
                vec2 uv = fragCoord / iResolution.xy;
                float t = iTime;
                float v = sin(uv.x * 10.0 + t) + sin((uv.y * 10.0 + t) * 0.5)
                        + sin((uv.x * 10.0 + uv.y * 10.0 + t) * 0.5);
                vec2 c = uv * 10.0 + vec2(sin(t / 3.0), cos(t / 2.0)) * 5.0;
                v += sin(sqrt(c.x * c.x + c.y * c.y + 1.0) + t);
                fragColor = vec4(0.5 + 0.5 * sin(v * 3.14159), 0.5 + 0.5 * sin(v * 3.14159 + 2.094),
                                 0.5 + 0.5 * sin(v * 3.14159 + 4.188), 1.0);
            }

            """
        if !FileManager.default.createFile(atPath: path, contents: Data(source.utf8)) { say("cannot write \(path)") }
        return path
    }()

    /// A 1280×720 gradient PNG (the output's size, so both programs show it
    /// 1:1) and the colour at its centre, where the probe looks.
    lazy var image: (path: String, center: RGB) = {
        let path = workDirectory + "/gradient.png"
        let (w, h) = (1280, 720)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        func color(_ x: Int, _ y: Int) -> RGB {
            RGB(r: UInt8(x * 255 / (w - 1)), g: UInt8(y * 255 / (h - 1)), b: 0x60)
        }
        for y in 0..<h {
            for x in 0..<w {
                let c = color(x, y)
                let i = (y * w + x) * 3
                pixels[i] = c.r
                pixels[i + 1] = c.g
                pixels[i + 2] = c.b
            }
        }
        // The rig's PNG writer is good enough: size does not matter here.
        do {
            try RigImage(width: w, height: h, pixels: pixels).writePNG(to: path)
        } catch {
            say("cannot write \(path): \(error)")
        }
        return (path, color(w / 2, h / 2))
    }()
}

/// A benchmark's own type: it gets the run's context from the runner and
/// reaches the context's parts by name, as if they were its own.
protocol Benchmark {
    var context: BenchContext { get }
}

extension Benchmark {
    var settings: BenchSettings { context.settings }
    var screenplay: String { context.screenplay }
    var workDirectory: String { context.workDirectory }
    var shaderPath: String { context.shaderPath }
    var image: (path: String, center: RGB) { context.image }

    /// The results the benchmark fills (the context's, not a copy).
    var results: BenchResults {
        get { context.results }
        nonmutating set { context.results = newValue }
    }

    func say(_ text: String) { context.say(text) }
}
