/// Declares one `--long` option of a subcommand.
public struct OptionSpec: Equatable, Sendable {
    /// Whether the option stands alone or needs a value.
    public enum Kind: Equatable, Sendable {
        /// `--json`
        case flag
        /// `--fps N` or `--fps=N`
        case value
    }

    /// Name without the leading dashes.
    public var name: String
    /// Flag or valued option.
    public var kind: Kind

    /// A flag, e.g. `.flag("json")`.
    public static func flag(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .flag) }
    /// An option taking a value, e.g. `.value("fps")`.
    public static func value(_ name: String) -> OptionSpec { OptionSpec(name: name, kind: .value) }
}

/// The words of one subcommand, sorted into flags, option values and
/// positional arguments, before any typing.
public struct ParsedArguments: Equatable, Sendable {
    /// Flags that were given.
    public var flags: Set<String> = []
    /// Every value of every valued option, in command-line order.
    public var values: [String: [String]] = [:]
    /// Positional arguments, in order (including everything after `--`).
    public var positionals: [String] = []

    /// Whether `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }
    /// All values of a repeatable option.
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    /// The value of a single-valued option; the last one wins when repeated,
    /// as in swift-argument-parser, so wrappers and aliases can override.
    public func last(_ name: String) -> String? { values[name]?.last }
}

/// Sorts `arguments` according to `options`.
///
/// Accepts `--opt value` and `--opt=value`; `--` ends option parsing. A
/// separate value may not start with `-` (except `-` itself, the usual
/// spelling of standard output), so `--fps --preview` reports the missing
/// value instead of swallowing the next option; write `--opt=-x` to pass
/// such a value.
public func scanArguments(_ arguments: [String], options: [OptionSpec], usage: String) throws(UsageError)
    -> ParsedArguments
{
    var parsed = ParsedArguments()
    var index = arguments.startIndex
    var optionsEnded = false
    func fail(_ message: String) -> UsageError { UsageError(message: message, usage: usage) }

    while index < arguments.endIndex {
        let word = arguments[index]
        index += 1
        if optionsEnded || word == "-" || !word.hasPrefix("-") {
            parsed.positionals.append(word)
            continue
        }
        if word == "--" {
            optionsEnded = true
            continue
        }
        guard word.hasPrefix("--") else { throw fail("unknown option '\(word)'") }
        let body = word.dropFirst(2)
        let name: String
        let inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = String(body)
            inlineValue = nil
        }
        guard let spec = options.first(where: { $0.name == name }) else {
            throw fail("unknown option '--\(name)'")
        }
        switch spec.kind {
        case .flag:
            if inlineValue != nil { throw fail("option '--\(name)' does not take a value") }
            parsed.flags.insert(name)
        case .value:
            var value = inlineValue
            if value == nil, index < arguments.endIndex {
                let next = arguments[index]
                if next == "-" || !next.hasPrefix("-") {
                    value = next
                    index += 1
                }
            }
            guard let value, !value.isEmpty else { throw fail("missing value for option '--\(name)'") }
            parsed.values[name, default: []].append(value)
        }
    }
    return parsed
}
