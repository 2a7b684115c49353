import Foundation

/// Names the setting to change when a sandbox, not the network, refused a
/// connection. The kiosk's unit (screenplay-kiosk@.service) refuses IP
/// sockets (`RestrictAddressFamilies=` without AF_INET and AF_INET6, so
/// socket(2) fails with EAFNOSUPPORT before any name lookup) until its
/// network drop-in is enabled, and `IPAddressDeny=` makes the kernel drop
/// packets (EPERM to a sender that sees it). libcurl, libmosquitto and
/// WebKit report these as "Couldn't connect", "Could not resolve host" or
/// a bare "Address family not supported by protocol"; a failed fetch, MQTT
/// connect or page load appends this hint to its log line.
public enum NetworkSandbox {
    /// The hint for a failed connection, or nil when nothing points at a
    /// sandbox. `error` is the system error the library kept, when it kept one.
    static func hint(error: Int32?) -> String? {
        if error == EAFNOSUPPORT || !mayOpenIPSockets() { return addressFamiliesHint(unit: unitName()) }
        if error == EPERM { return addressDenyHint(unit: unitName()) }
        return nil
    }

    /// `text` with the hint appended (unchanged when there is none).
    public static func explained(_ text: String, error: Int32?) -> String {
        guard let hint = hint(error: error) else { return text }
        return text + "; " + hint
    }

    /// Whether socket(2) gives this process an IPv4 or an IPv6 socket. The
    /// seccomp filter of `RestrictAddressFamilies=` answers EAFNOSUPPORT for
    /// both; any other answer (a kernel without IPv6, no descriptors left) is
    /// not the sandbox. Opens and closes a socket; sends nothing.
    static func mayOpenIPSockets() -> Bool {
        for family in [AF_INET, AF_INET6] {
            let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd >= 0 {
                close(fd)
                return true
            }
            if errno != EAFNOSUPPORT { return true }
        }
        return false
    }

    static func addressFamiliesHint(unit: String?, dropIn: String = dropInPath()) -> String {
        let owner = unit.map { "the network sandbox of \($0)" } ?? "a sandbox"
        return "\(owner) refuses IP sockets (RestrictAddressFamilies= has no AF_INET, AF_INET6): "
            + "a kiosk that plays a URL, uses --mqtt or shows web items needs the network drop-in: "
            + enableCommand(unit: unit, dropIn: dropIn) + " (docs/kiosk.md: A signage box from scratch)"
    }

    static func addressDenyHint(unit: String?, dropIn: String = dropInPath()) -> String {
        let owner = unit.map { "the IPAddressDeny= of \($0)" } ?? "a unit's IPAddressDeny="
        return "the system refused the packet (Operation not permitted): \(owner), or a firewall; "
            + "the kiosk's network drop-in clears IPAddressDeny= (" + enableCommand(unit: unit, dropIn: dropIn)
            + "), and an IPAddressAllow= list must name this host and the DNS resolver"
    }

    /// The commands that link `dropIn` into the unit's drop-in folder as `name`.
    public static func enableCommand(unit: String?, dropIn: String, name: String = "network.conf") -> String {
        let unit = unit ?? "screenplay-kiosk@USER.service"
        let folder = "/etc/systemd/system/\(unit).d"
        return "mkdir -p \(folder) && ln -s \(dropIn) \(folder)/\(name) && systemctl daemon-reload "
            + "&& systemctl restart \(unit)"
    }

    /// The service this process runs in: the last `.service` in its control
    /// group path (/proc/self/cgroup), nil outside one.
    public static func unitName() -> String? {
        unitName(cgroups: try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8))
    }

    /// The last `.service` in the control group path `cgroups` (/proc/self/cgroup's text).
    static func unitName(cgroups: String?) -> String? {
        guard let cgroups else { return nil }
        for line in cgroups.split(separator: "\n") {
            // "0::/system.slice/system-screenplay\x2dkiosk.slice/screenplay-kiosk@signage.service"
            let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last ?? ""
            if let unit = path.split(separator: "/").last(where: { $0.hasSuffix(".service") }) { return String(unit) }
        }
        return nil
    }

    /// The drop-in as installed beside this binary (PREFIX/share/screenplay,
    /// where install.sh and the .deb put it); the .deb's path otherwise.
    public static func dropInPath(_ file: String = "kiosk-network.conf") -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/screenplay/\(file)").path
        return FileManager.default.fileExists(atPath: installed)
            ? installed : "/usr/share/screenplay/\(file)"
    }
}
