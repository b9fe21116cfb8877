/// A line-by-line comparison of an expected list of names with an actual one, for failure messages.
///
/// It keeps the longest run of names both lists share in the same order; everything else is marked `-`
/// (expected at that place, not received there) or `+` (received there, not expected). A name received
/// at the wrong place shows up once with each marker.
struct ListDiff {
    enum Line {
        case same(String)
        case missing(String)
        case unexpected(String)
    }

    let expected: [String]
    let actual: [String]
    let lines: [Line]

    init(expected: [String], actual: [String]) {
        self.expected = expected
        self.actual = actual
        // common[i][j]: the length of the longest common subsequence of expected[i...] and actual[j...].
        var common = Array(repeating: Array(repeating: 0, count: actual.count + 1), count: expected.count + 1)
        for i in expected.indices.reversed() {
            for j in actual.indices.reversed() {
                common[i][j] =
                    expected[i] == actual[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [Line] = []
        var (i, j) = (0, 0)
        while i < expected.count || j < actual.count {
            if i < expected.count, j < actual.count, expected[i] == actual[j] {
                lines.append(.same(expected[i]))
                i += 1
                j += 1
            } else if j == actual.count || (i < expected.count && common[i + 1][j] >= common[i][j + 1]) {
                lines.append(.missing(expected[i]))
                i += 1
            } else {
                lines.append(.unexpected(actual[j]))
                j += 1
            }
        }
        self.lines = lines
    }

    /// Whether the lists are equal.
    var matches: Bool { expected == actual }

    /// The first index at which the lists differ, described: `index 1: expected A, received B`.
    var firstDifference: String? {
        guard !matches else { return nil }
        let shared = min(expected.count, actual.count)
        let index = (0..<shared).first { expected[$0] != actual[$0] } ?? shared
        let wanted = index < expected.count ? expected[index] : "nothing more"
        let got = index < actual.count ? actual[index] : "nothing more"
        return "index \(index): expected \(wanted), received \(got)"
    }

    /// The lines, indented, with their markers.
    var rendered: String {
        let body = lines.map { line in
            switch line {
            case .same(let name): return "    \(name)"
            case .missing(let name): return "  - \(name)"
            case .unexpected(let name): return "  + \(name)"
            }
        }
        return (["  (- expected here but not received here, + received here but not expected here)"] + body)
            .joined(separator: "\n")
    }
}
