#!/bin/bash
# Kills compositors (and anything else) the Swift test rig (Tests/Support) left behind,
# e.g. after a test run crashed or was killed before its teardown ran, and removes the
# rig's temp directories. Run by scripts/test.sh after `swift test`.
#
# A leftover is a rig process whose test run is over: no process above it is a test
# process (`*.xctest`) or the benchmark (`screenplay-bench`). The rigs of runs still
# going, another developer's or a repeat's neighbour, are left alone with their temp
# directories and records, so one developer's clean-up does not fail another's tests.
#
#   scripts/rig-cleanup.sh            kill leftovers
#   scripts/rig-cleanup.sh --dry-run  only list what would be killed (and what is spared)
#   scripts/rig-cleanup.sh --all      kill every rig on the machine, running or not
#
# Found two ways:
#  - /tmp/screenplay-rig-pids/<pid> records ("pid starttime" first line), written for every
#    child the rig spawns; the start time guards against a pid reused by something else.
#  - processes whose command line names a rig temp dir (/tmp/screenplay-rig.*) or the rig's
#    weston socket, in case a record was never written.
set -u

PIDDIR=/tmp/screenplay-rig-pids
DRY=0
ALL=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY=1 ;;
        --all) ALL=1 ;;
        *) echo "rig-cleanup: unknown option $arg (use --dry-run or --all)" >&2; exit 64 ;;
    esac
done

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

# Whether a test or benchmark process still runs above PID: its rig is in use.
# (A rig's children are reparented to init, or a subreaper, when their run dies.)
in_use() {
    [ "$ALL" = 1 ] && return 1
    p=$1
    while [ -n "$p" ] && [ "$p" -gt 1 ] 2>/dev/null; do
        case "$(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null)" in
            *.xctest*|*screenplay-bench*) return 0 ;;
        esac
        p=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f2)
    done
    return 1
}

spared=""
# Sorts PID into targets, or into spared when its run goes on.
consider() {
    if in_use "$1"; then spared="$spared $1"; else targets="$targets $1"; fi
}

targets=""

if [ -d "$PIDDIR" ]; then
    for record in "$PIDDIR"/*; do
        [ -f "$record" ] || continue
        pid=$(head -n1 "$record" | cut -d' ' -f1)
        [ "$pid" = "$$" ] && continue
        recorded=$(head -n1 "$record" | cut -d' ' -f2)
        if [ -n "$pid" ] && alive "$pid" && [ "$(starttime "$pid")" = "$recorded" ]; then
            consider "$pid"
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
            alive "$pid" && consider "$pid" ;;
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

spared=$(printf '%s\n' $spared | sort -un | tr '\n' ' ')
for pid in $spared; do
    echo "rig-cleanup: spared $pid (its test run goes on) $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
done

# A temp dir is in use while a spared process names it (sway's config, a client's
# XDG_RUNTIME_DIR). One a running test made but has not yet handed to a child names
# no process, so while any test or benchmark runs, only dirs untouched for an hour go.
running=0
for dir in /proc/[0-9]*; do
    case "$(tr '\0' ' ' < "$dir/cmdline" 2>/dev/null)" in
        *rig-cleanup.sh*) ;;
        *.xctest*|*screenplay-bench*) running=1; break ;;
    esac
done
named=""
for pid in $spared; do
    named="$named $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null) $(tr '\0' ' ' < "/proc/$pid/environ" 2>/dev/null)"
done

if [ "$DRY" = 0 ]; then
    for dir in /tmp/screenplay-rig.*; do
        [ -e "$dir" ] || continue
        if [ "$ALL" = 0 ] && [ "$running" = 1 ]; then
            case "$named" in *"$dir"*) continue ;; esac
            [ -n "$(find "$dir" -maxdepth 0 -mmin -60 2>/dev/null)" ] && continue
        fi
        rm -rf "$dir" 2>/dev/null
    done
    # Records of the processes just killed; those spared keep theirs.
    for pid in $targets; do rm -f "$PIDDIR/$pid"; done
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
