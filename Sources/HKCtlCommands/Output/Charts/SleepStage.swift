import HealthCore

/// The parts of a night as charts draw them, in drawing order, with their glyphs and colours.
enum SleepStage: String, CaseIterable, Sendable {
    case deep, core, rem, asleep, awake, inBed

    /// The legend's name.
    var label: String {
        switch self {
        case .deep: return "deep"
        case .core: return "core"
        case .rem: return "REM"
        case .asleep: return "asleep"
        case .awake: return "awake"
        case .inBed: return "in bed"
        }
    }

    /// Seconds of this part in `night`; ``inBed`` is the time in bed not otherwise accounted for.
    func seconds(in night: SleepNight) -> Double {
        switch self {
        case .deep: return night.asleepDeep
        case .core: return night.asleepCore
        case .rem: return night.asleepREM
        case .asleep: return night.asleepUnspecified
        case .awake: return night.awake
        case .inBed: return max(0, (night.inBed ?? 0) - night.asleep - night.awake)
        }
    }

    /// The terminal glyph: Unicode, ASCII.
    var glyphs: (unicode: String, ascii: String) {
        switch self {
        case .deep: return ("█", "#")
        case .core: return ("▓", "=")
        case .rem: return ("▒", "~")
        case .asleep: return ("▆", "*")
        case .awake: return ("░", ".")
        case .inBed: return ("·", "-")
        }
    }

    /// The terminal colour.
    var colour: TerminalStyle.Colour {
        switch self {
        case .deep: return .blue
        case .core: return .cyan
        case .rem: return .magenta
        case .asleep: return .green
        case .awake: return .yellow
        case .inBed: return .dim
        }
    }

    /// The SVG fill colour.
    var fill: String {
        switch self {
        case .deep: return "#1f4e9c"
        case .core: return "#3d8bd9"
        case .rem: return "#9b59b6"
        case .asleep: return "#2e9e6b"
        case .awake: return "#f0a030"
        case .inBed: return "#c8ccd4"
        }
    }
}
