#!/bin/bash
# Kills compositors (and anything else) the Swift test rig (Tests/Support) left behind,
# e.g. after a test run crashed or was killed before its teardown ran, and removes the
# rig's temp directories. Meant for CI, after `swift test`. It acts on every rig on this
# machine, so do not run it while another test run is still using its compositors.
#
#   scripts/rig-cleanup.sh            kill leftovers
#   scripts/rig-cleanup.sh --dry-run  only list what would be killed
#
# Found two ways:
#  - /tmp/screenplay-rig-pids/<pid> records ("pid starttime" first line), written for every
#    child the rig spawns; the start time guards against a pid reused by something else.
#  - processes whose command line names a rig temp dir (/tmp/screenplay-rig.*) or the rig's
#    weston socket, in case a record was never written.
set -u

PIDDIR=/tmp/screenplay-rig-pids
DRY=0
[ "${1:-}" = "--dry-run" ] && DRY=1

# Field 22 of /proc/PID/stat; the fields after the ") " ending the command name start at 3.
starttime() {
    sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20
}

# Only a group leader's group is the rig's own (the rig spawns every child as one).
leads_group() {
    [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f3)" = "$1" ]
}

alive() {
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

targets=""

if [ -d "$PIDDIR" ]; then
    for record in "$PIDDIR"/*; do
        [ -f "$record" ] || continue
        pid=$(head -n1 "$record" | cut -d' ' -f1)
        recorded=$(head -n1 "$record" | cut -d' ' -f2)
        if [ -n "$pid" ] && alive "$pid" && [ "$(starttime "$pid")" = "$recorded" ]; then
            targets="$targets $pid"
        elif [ "$DRY" = 0 ]; then
            rm -f "$record"
        fi
    done
fi

for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = "$$" ] && continue
    cmd=$(tr '\0' ' ' < "$dir/cmdline" 2>/dev/null) || continue
    case "$cmd" in
        *rig-cleanup.sh*) ;;
        */tmp/screenplay-rig.*|*--socket=screenplay-rig-weston*)
            alive "$pid" && targets="$targets $pid" ;;
    esac
done

targets=$(printf '%s\n' $targets | sort -un | tr '\n' ' ')
targets=${targets% }

if [ -z "$targets" ]; then
    echo "rig-cleanup: no leftover rig processes"
else
    for pid in $targets; do
        echo "rig-cleanup: $pid $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
    done
    if [ "$DRY" = 0 ]; then
        # Each rig child leads its own process group, which holds sway/weston and their clients.
        leaders=""
        for pid in $targets; do leads_group "$pid" && leaders="$leaders $pid"; done
        for pid in $leaders; do kill -TERM -- "-$pid" 2>/dev/null; done
        for pid in $targets; do kill -TERM "$pid" 2>/dev/null; done
        sleep 2
        for pid in $leaders; do kill -KILL -- "-$pid" 2>/dev/null; done
        for pid in $targets; do alive "$pid" && kill -KILL "$pid" 2>/dev/null; done
    fi
fi

if [ "$DRY" = 0 ]; then
    rm -rf /tmp/screenplay-rig.* 2>/dev/null
    [ -d "$PIDDIR" ] && find "$PIDDIR" -type f -delete 2>/dev/null
    # The package tests' shared builds (Tests/PackageTests/RunShared.swift),
    # hundreds of MB, named after their `swift test`: only those of runs
    # that are over, so a run still going keeps its own.
    for shared in /tmp/screenplay-run-*; do
        [ -e "$shared" ] || continue
        run=${shared#/tmp/screenplay-run-}
        run=${run%%-*}
        kill -0 "$run" 2>/dev/null || rm -rf "$shared"
    done
fi
exit 0
