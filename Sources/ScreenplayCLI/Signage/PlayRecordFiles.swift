import Fleet
import Foundation
import Signage

/// Where `play`'s record lines go: every event to `--stats`, the items
/// that reached a screen also to the proof-of-play file (`--proof`) and,
/// with `--mqtt`, to the broker. The player hands them on
/// (`SignagePlayer.onEvent`, `onProofOfPlay`).
@MainActor
final class PlayRecordFiles {
    /// `--stats`: nil without it (then no per-second timer runs either).
    private(set) var stats: StatsWriter?
    private var proofFile: StatsWriter?
    /// `--mqtt`: made after the files are open, so set later.
    var mqtt: MQTTBox?

    /// Opens `--stats` and `--proof` (exit 66 when one cannot be opened).
    func open(_ command: PlayCommand) throws(CommandFailure) {
        stats = try StatsWriter.open(command.stats)
        if let path = command.proofPath {
            proofFile = try StatsWriter.appending(to: path, role: "the proof-of-play file")
        }
    }

    /// One proof-of-play line (the player sent it to `--stats` already).
    func proof(_ line: [String: Any]) {
        proofFile?.write(line)
        mqtt?.proof(line)
    }

    /// SIGUSR1: the files opened afresh (logrotate's postrotate).
    func reopen() {
        proofFile?.reopen()
        stats?.reopen()
    }
}
