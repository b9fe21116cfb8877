extension DeliveryJournal {
    /// The launch as an SVG Gantt chart, drawn without any dependency: one row per participant, a bar for
    /// each of its launch hook calls (the launch events and stages) at the time it ran, and the slowest
    /// participants labelled with their total time. `lifecycle-demo timeline FILE` writes one, and
    /// `Scripts/render-timeline.sh` regenerates `Docs/launch-timeline.svg`.
    ///
    /// - Parameters:
    ///   - title: The chart's title.
    ///   - labelled: How many of the slowest participants get their total time written next to them.
    /// - Returns: A standalone SVG document; with no launch call in the journal, a chart that says so.
    public func launchTimelineSVG(title: String = "Launch timeline", labelled: Int = 3) -> String {
        let launch = Set(
            [LifecycleEvent.willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching].map(\.name)
        )
        let calls = entries.filter { $0.note == nil && launch.contains($0.event) }
        var rows: [String] = []
        var totals: [String: Double] = [:]
        for call in calls {
            if totals[call.participant] == nil { rows.append(call.participant) }
            totals[call.participant, default: 0] += call.durationMicroseconds
        }
        let start = calls.map(\.startMicroseconds).min() ?? 0
        let end = calls.map { $0.startMicroseconds + $0.durationMicroseconds }.max() ?? start
        let span = max(end - start, 1)
        let slowest = Set(totals.sorted { $0.value > $1.value }.prefix(max(0, labelled)).map(\.key))

        let labelWidth = 230.0
        let chartWidth = 640.0
        let rowHeight = 20.0
        let top = 40.0
        let height = top + Double(max(rows.count, 1)) * rowHeight + 40
        let width = labelWidth + chartWidth + 110
        func x(_ micros: Double) -> Double { labelWidth + (micros - start) / span * chartWidth }
        let colors = ["#4e79a7", "#59a14f", "#f28e2b", "#e15759", "#76b7b2"]
        let eventOrder = [LifecycleEvent.willFinishLaunching, .setup, .initialize, .warmUp, .didFinishLaunching]
            .map(\.name)

        var svg = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(format(width))" height="\#(format(height))" "#
                + #"viewBox="0 0 \#(format(width)) \#(format(height))" font-family="Helvetica, Arial, sans-serif" "#
                + #"font-size="12">"#,
            #"<rect width="100%" height="100%" fill="white"/>"#,
            #"<text x="10" y="22" font-size="15" font-weight="bold">\#(xmlEscaped(title))</text>"#,
        ]
        if rows.isEmpty {
            svg.append(#"<text x="10" y="60">No launch call in the journal.</text>"#)
        }
        for (index, participant) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let name = participant.split(separator: ".").last.map(String.init) ?? participant
            svg.append(
                #"<text x="10" y="\#(format(y + 14))">\#(xmlEscaped(name))</text>"#
            )
            for call in calls where call.participant == participant {
                let color = colors[(eventOrder.firstIndex(of: call.event) ?? 0) % colors.count]
                let barWidth = max(call.durationMicroseconds / span * chartWidth, 1)
                svg.append(
                    #"<rect x="\#(format(x(call.startMicroseconds)))" y="\#(format(y + 3))" "#
                        + #"width="\#(format(barWidth))" height="\#(format(rowHeight - 6))" fill="\#(color)">"#
                        + #"<title>\#(xmlEscaped("\(call.event) \(name): \(milliseconds(call.durationMicroseconds))"))"#
                        + #"</title></rect>"#
                )
            }
            if slowest.contains(participant), let total = totals[participant] {
                let right =
                    calls.filter { $0.participant == participant }
                    .map { x($0.startMicroseconds + $0.durationMicroseconds) }.max() ?? labelWidth
                svg.append(
                    #"<text x="\#(format(right + 6))" y="\#(format(y + 14))" font-weight="bold">"#
                        + #"\#(xmlEscaped(milliseconds(total)))</text>"#
                )
            }
        }
        let axis = top + Double(max(rows.count, 1)) * rowHeight + 8
        svg.append(
            #"<line x1="\#(format(labelWidth))" y1="\#(format(axis))" x2="\#(format(labelWidth + chartWidth))" "#
                + #"y2="\#(format(axis))" stroke="gray"/>"#
        )
        for tick in 0...4 {
            let micros = start + span * Double(tick) / 4
            svg.append(
                #"<text x="\#(format(x(micros)))" y="\#(format(axis + 16))" text-anchor="middle" fill="dimgray">"#
                    + #"\#(xmlEscaped(milliseconds(micros - start)))</text>"#
            )
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }
}

/// `12.3 ms`, from microseconds.
private func milliseconds(_ micros: Double) -> String {
    let tenths = (micros / 100).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10) ms"
}

/// A coordinate with one decimal.
private func format(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
}

/// Text safe inside an XML element or attribute.
private func xmlEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        default: escaped.append(character)
        }
    }
    return escaped
}
