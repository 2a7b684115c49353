// Hand-written SVG charts: line charts (time series, CDFs, scaling curves) and bar charts.
// No plotting tools are installed, and SVG is plain text that any browser shows.
import Foundation

/// A named series of (x, y) points.
struct ChartSeries {
    var name: String
    var points: [(x: Double, y: Double)]
    /// Draw dots at the points (sparse data) rather than only a line.
    var markers = false
}

enum SVGChart {
    static let width = 1060.0
    static let height = 420.0
    /// The right margin holds the legend, so it never covers data.
    static let margin = (left: 70.0, right: 330.0, top: 40.0, bottom: 60.0)
    static let palette = [
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
        "#bcbd22", "#000000", "#aec7e8",
    ]

    /// A line chart; `yFromZero` anchors the y axis at 0.
    static func line(
        title: String, xLabel: String, yLabel: String, series: [ChartSeries], xRange: ClosedRange<Double>? = nil,
        yFromZero: Bool = true, step: Bool = false
    ) -> String {
        let all = series.flatMap(\.points)
        guard !all.isEmpty else { return empty(title) }
        let xs = xRange ?? ((all.map(\.x).min() ?? 0)...(all.map(\.x).max() ?? 1))
        let yMax = all.map(\.y).max() ?? 1
        let yMin = yFromZero ? 0 : (all.map(\.y).min() ?? 0)
        let xTicks = niceTicks(xs.lowerBound, xs.upperBound)
        let yTicks = niceTicks(yMin, yMax)
        let x0 = xTicks.first ?? xs.lowerBound, x1 = xTicks.last ?? xs.upperBound
        let y0 = yTicks.first ?? yMin, y1 = yTicks.last ?? yMax
        let plotW = width - margin.left - margin.right, plotH = height - margin.top - margin.bottom
        func px(_ x: Double) -> Double { margin.left + (x1 > x0 ? (x - x0) / (x1 - x0) : 0.5) * plotW }
        func py(_ y: Double) -> Double { margin.top + plotH - (y1 > y0 ? (y - y0) / (y1 - y0) : 0.5) * plotH }
        var svg =
            header(title)
            + axes(
                xTicks: xTicks.map { ($0, px($0)) }, yTicks: yTicks.map { ($0, py($0)) }, xLabel: xLabel, yLabel: yLabel
            )
        for (i, s) in series.enumerated() {
            let color = palette[i % palette.count]
            let visible = s.points.filter { $0.x >= x0 && $0.x <= x1 }
            var path = ""
            var previousY: Double?
            for (j, p) in visible.enumerated() {
                if step, let previousY {
                    path += " L\(f(px(p.x))),\(f(py(previousY)))"
                }
                path += (j == 0 ? "M" : " L") + "\(f(px(p.x))),\(f(py(p.y)))"
                previousY = p.y
            }
            if visible.count > 1 {
                svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\"/>\n"
            }
            if s.markers || visible.count == 1 {
                for p in visible {
                    svg += "<circle cx=\"\(f(px(p.x)))\" cy=\"\(f(py(p.y)))\" r=\"3.5\" fill=\"\(color)\"/>\n"
                }
            }
        }
        return svg + legend(series.map(\.name)) + "</svg>\n"
    }

    /// Horizontal bars with their values written next to them.
    static func bars(title: String, unit: String, bars: [(label: String, value: Double)]) -> String {
        guard !bars.isEmpty else { return empty(title) }
        let labelWidth = 260.0
        let rowHeight = 30.0
        let h = margin.top + Double(bars.count) * rowHeight + 40
        let maxValue = max(bars.map(\.value).max() ?? 1, 1e-9)
        let plotW = width - labelWidth - 110
        var svg = header(title, height: h)
        for (i, bar) in bars.enumerated() {
            let y = margin.top + Double(i) * rowHeight
            let w = max(1, bar.value / maxValue * plotW)
            svg +=
                "<text x=\"\(f(labelWidth - 8))\" y=\"\(f(y + 19))\" text-anchor=\"end\">\(escape(bar.label))</text>\n"
            svg +=
                "<rect x=\"\(f(labelWidth))\" y=\"\(f(y + 5))\" width=\"\(f(w))\" height=\"20\" fill=\"\(palette[i % palette.count])\"/>\n"
            svg +=
                "<text x=\"\(f(labelWidth + w + 6))\" y=\"\(f(y + 19))\">\(escape(format(bar.value))) \(escape(unit))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// Empirical CDF of a sample: the share of values ≤ x.
    /// At most ~500 points are kept (plus the last), so a chart of thousands
    /// of frame intervals stays a small file.
    static func cdf(_ values: [Double]) -> [(x: Double, y: Double)] {
        let sorted = values.sorted()
        let stride = max(1, sorted.count / 500)
        return sorted.indices.filter { $0 % stride == 0 || $0 == sorted.count - 1 }
            .map { (sorted[$0], Double($0 + 1) / Double(sorted.count)) }
    }

    // MARK: - Pieces

    private static func header(_ title: String, height h: Double = height) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(h))" viewBox="0 0 \(f(width)) \(f(h))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="15" font-weight="bold">\(escape(title))</text>

        """
    }

    private static func empty(_ title: String) -> String {
        header(title)
            + "<text x=\"\(f(width / 2))\" y=\"\(f(height / 2))\" text-anchor=\"middle\">no data</text>\n</svg>\n"
    }

    private static func axes(xTicks: [(Double, Double)], yTicks: [(Double, Double)], xLabel: String, yLabel: String)
        -> String
    {
        let bottom = height - margin.bottom, right = width - margin.right
        var svg = "<g stroke=\"#ddd\">\n"
        for (_, y) in yTicks {
            svg += "<line x1=\"\(f(margin.left))\" y1=\"\(f(y))\" x2=\"\(f(right))\" y2=\"\(f(y))\"/>\n"
        }
        svg += "</g>\n<g stroke=\"black\">\n"
        svg += "<line x1=\"\(f(margin.left))\" y1=\"\(f(bottom))\" x2=\"\(f(right))\" y2=\"\(f(bottom))\"/>\n"
        svg +=
            "<line x1=\"\(f(margin.left))\" y1=\"\(f(margin.top))\" x2=\"\(f(margin.left))\" y2=\"\(f(bottom))\"/>\n</g>\n"
        for (value, x) in xTicks {
            svg += "<text x=\"\(f(x))\" y=\"\(f(bottom + 16))\" text-anchor=\"middle\">\(format(value))</text>\n"
        }
        for (value, y) in yTicks {
            svg += "<text x=\"\(f(margin.left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(format(value))</text>\n"
        }
        svg +=
            "<text x=\"\(f((margin.left + right) / 2))\" y=\"\(f(height - 18))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        svg +=
            "<text transform=\"translate(16 \(f((margin.top + bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"
        return svg
    }

    private static func legend(_ names: [String]) -> String {
        var svg = ""
        for (i, name) in names.enumerated() {
            let y = margin.top + 8 + Double(i) * 16
            let x = width - margin.right + 14
            svg +=
                "<rect x=\"\(f(x))\" y=\"\(f(y - 9))\" width=\"12\" height=\"10\" fill=\"\(palette[i % palette.count])\"/>\n"
            svg += "<text x=\"\(f(x + 16))\" y=\"\(f(y))\">\(escape(name))</text>\n"
        }
        return svg
    }

    /// About five round-numbered ticks covering lo...hi.
    static func niceTicks(_ lo: Double, _ hi: Double) -> [Double] {
        guard hi > lo else { return [lo, lo + 1] }
        let rough = (hi - lo) / 5
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? rough
        let start = floor(lo / step) * step
        var ticks: [Double] = []
        var value = start
        while value < hi + step * 0.999 {
            ticks.append(value)
            value += step
        }
        return ticks
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e6 { return String(Int(value)) }
        return abs(value) >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
