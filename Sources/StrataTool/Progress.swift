import Foundation
import StrataPOSIX

/// A progress line on standard error, drawn only when standard error is a terminal (so piped or
/// redirected output never holds it), redrawn at most ten times a second; `finish()` leaves its
/// final state on the screen.
final class Progress {
    let label: String
    let isShown: Bool
    private var lastDraw = Date.distantPast
    private var state: (done: UInt64, total: UInt64, unit: String)?

    init(_ label: String, enabled: Bool = System.isTerminal(2)) {
        self.label = label
        self.isShown = enabled
    }

    /// Reports `done` of `total` units (`total` 0 when unknown).
    func update(_ done: UInt64, of total: UInt64, unit: String = "objects") {
        guard isShown else { return }
        state = (done, total, unit)
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        draw()
    }

    private func draw() {
        guard let (done, total, unit) = state else { return }
        var line = "\(label): \(done)"
        if total > 0 { line += " of \(total) \(unit) (\(min(100, done * 100 / total))%)" } else { line += " \(unit)" }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// Draws the final state and ends the line.
    func finish() {
        guard isShown, state != nil else { return }
        draw()
        FileHandle.standardError.write(Data("\n".utf8))
        state = nil
    }
}
