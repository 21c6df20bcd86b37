import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal settings to restore from the SIGTERM handler (which can capture nothing).
nonisolated(unsafe) private var settingsBeforeRawMode = termios()

/// The process's terminal: raw keyboard input (no line editing or echo by the kernel, so the
/// screen can be redrawn while the person types) and full-screen output.
///
/// When stdin is not a terminal (a pipe), input is read as it comes and nothing is changed.
final class Terminal: @unchecked Sendable {
    let isInteractive: Bool
    private var saved = termios()
    private var raw = false

    init() {
        isInteractive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Turns off line buffering, echo and signal keys (Ctrl-C arrives as a byte and quits
    /// cleanly, restoring the terminal).
    func enterRawMode() {
        guard isInteractive, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var settings = saved
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { return }
        raw = true
        // Killed (SIGTERM), the process still hands the terminal back as it found it.
        settingsBeforeRawMode = saved
        signal(SIGTERM) { _ in
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settingsBeforeRawMode)
            _exit(128 + SIGTERM)
        }
    }

    /// Puts the terminal back as it was.
    func restore() {
        guard raw else { return }
        var settings = saved
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        raw = false
    }

    /// Columns of the terminal (80 when unknown).
    var width: Int {
        var size = winsize()
        guard isInteractive, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Replaces the whole screen with `lines` (or prints them after a rule when not a terminal).
    func draw(_ lines: [String]) {
        if isInteractive {
            write("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n"))
        } else {
            write("\n" + lines.map(ScreenText.plain).joined(separator: "\n") + "\n")
        }
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// The bytes typed, as they arrive; ends at end of input.
    func keys() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let thread = Thread {
            while true {
                let bytes = FileHandle.standardInput.availableData
                if bytes.isEmpty { break }
                continuation.yield(Array(bytes))
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
