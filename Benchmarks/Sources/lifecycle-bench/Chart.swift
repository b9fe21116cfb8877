import Foundation

/// Writes the chart as SVG by hand: nanoseconds per module against N, both on log scales, one line per
/// system, in three panels (dispatching one event; sending messages; building and whole lifecycles).
/// Library rows are solid, baselines dashed. Values are the minima.
func svgChart(_ table: ResultTable, title: String) -> String {
    let panelWidth = 980.0
    let panelHeight = 430.0
    let panels: [(String, [System])] = [
        (
            "Delivering one event to N modules, and resolving a service (ns per module or resolution, min)",
            System.all.filter { $0.group == .event || $0.group == .boolEvent || $0.group == .serviceResolution }
        ),
        (
            "Sending a message to one receiver, and broadcasting one to N (ns per send or receiver, min)",
            System.all.filter { $0.group == .messageSend || $0.group == .messageBroadcast }
        ),
        (
            "Building the proxy, and whole lifecycles (ns per module, min)",
            System.all.filter { $0.group == .build || $0.group == .lifecycle }
        ),
    ]
    var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(panelWidth))" \
        height="\(Int(panelHeight * Double(panels.count) + 40))" font-family="Helvetica, Arial, sans-serif" \
        font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="20" y="24" font-size="15" font-weight="bold">\(escaped(title))</text>

        """
    for (index, panel) in panels.enumerated() {
        svg += chartPanel(
            table,
            title: panel.0,
            systems: panel.1,
            origin: (0, 40 + Double(index) * panelHeight),
            size: (panelWidth, panelHeight)
        )
    }
    return svg + "</svg>\n"
}

/// Distinct colours, in the order systems are drawn.
private let palette = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#393b79", "#637939",
]

private func chartPanel(
    _ table: ResultTable,
    title: String,
    systems: [System],
    origin: (x: Double, y: Double),
    size: (width: Double, height: Double)
) -> String {
    let lines = systems.compactMap { system -> (System, [(Int, Double)])? in
        let points = table.sizes.compactMap { n in table.find(system, n).map { (n, $0.minPerModule) } }
        return points.isEmpty ? nil : (system, points)
    }
    guard !lines.isEmpty, let smallest = table.sizes.min(), let largest = table.sizes.max() else { return "" }
    let values = lines.flatMap { $0.1.map(\.1) }.filter { $0 > 0 }
    let low = floor(log10(values.min() ?? 1))
    let high = max(ceil(log10(values.max() ?? 10)), low + 1)
    let left = origin.x + 70
    let top = origin.y + 30
    let plotWidth = 430.0
    let plotHeight = size.height - 90
    let xLow = log10(Double(smallest))
    let xHigh = max(log10(Double(largest)), xLow + 1)
    func x(_ n: Int) -> Double { left + (log10(Double(n)) - xLow) / (xHigh - xLow) * plotWidth }
    func y(_ value: Double) -> Double { top + plotHeight - (log10(value) - low) / (high - low) * plotHeight }

    var svg = "<g>\n<text x=\"\(left)\" y=\"\(origin.y + 18)\" font-size=\"13\" font-weight=\"bold\">"
    svg += "\(escaped(title))</text>\n"
    svg += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(plotWidth)\" height=\"\(plotHeight)\" fill=\"none\" "
    svg += "stroke=\"#444\"/>\n"
    for decade in stride(from: low, through: high, by: 1) {
        let position = y(pow(10, decade))
        svg += "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(left + plotWidth)\" y2=\"\(position)\" "
        svg += "stroke=\"#ddd\"/>\n"
        svg += "<text x=\"\(left - 6)\" y=\"\(position + 4)\" text-anchor=\"end\">"
        svg += "\(escaped(durationLabel(pow(10, decade))))</text>\n"
    }
    for n in table.sizes {
        svg += "<line x1=\"\(x(n))\" y1=\"\(top)\" x2=\"\(x(n))\" y2=\"\(top + plotHeight)\" stroke=\"#ddd\"/>\n"
        svg += "<text x=\"\(x(n))\" y=\"\(top + plotHeight + 16)\" text-anchor=\"middle\">N=\(grouped(n))</text>\n"
    }
    for (index, line) in lines.enumerated() {
        let colour = palette[index % palette.count]
        let dash = line.0.isLibrary ? "" : " stroke-dasharray=\"6 4\""
        let points = line.1.map { "\(x($0.0)),\(y($0.1))" }.joined(separator: " ")
        svg += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>\n"
        for point in line.1 {
            svg += "<circle cx=\"\(x(point.0))\" cy=\"\(y(point.1))\" r=\"3\" fill=\"\(colour)\"/>\n"
        }
        let legendY = top + 6 + Double(index) * 17
        let legendX = left + plotWidth + 20
        svg += "<line x1=\"\(legendX)\" y1=\"\(legendY)\" x2=\"\(legendX + 24)\" y2=\"\(legendY)\" "
        svg += "stroke=\"\(colour)\" stroke-width=\"2\"\(dash)/>\n"
        svg += "<text x=\"\(legendX + 30)\" y=\"\(legendY + 4)\">\(escaped(legendLabel(line.0)))</text>\n"
    }
    return svg + "</g>\n"
}

/// `1 ns`, `100 ns`, `10 µs`, `1 ms`, `1 s`.
private func durationLabel(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1e3: "\(significant(nanoseconds)) ns"
    case ..<1e6: "\(significant(nanoseconds / 1e3)) µs"
    case ..<1e9: "\(significant(nanoseconds / 1e6)) ms"
    default: "\(significant(nanoseconds / 1e9)) s"
    }
}

/// A legend entry short enough for the panel.
private func legendLabel(_ system: System) -> String {
    let label = system.label
    return label.count > 78 ? String(label.prefix(77)) + "…" : label
}

private func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
}
