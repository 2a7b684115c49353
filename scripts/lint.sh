#!/usr/bin/env bash
# Checks the Swift code against the committed .swift-format configuration and
# fails on any finding (each printed as FILE:LINE:COLUMN: [Rule] what to change).
# `swift format format -r -i --configuration .swift-format Sources Tests Examples Plugins Package.swift`
# applies every fix the formatter can make.
set -euo pipefail
cd "$(dirname "$0")/.."
# The toolchain ships swift-format as the `swift format` subcommand (6.0 on)
# and as the swift-format binary next to swift.
if swift format --version >/dev/null 2>&1; then
  format=(swift format)
else
  format=("$(dirname "$(readlink -f "$(command -v swift)")")/swift-format")
fi
"${format[@]}" lint --strict --recursive --parallel --configuration .swift-format Sources Tests Examples Plugins Package.swift
echo "lint.sh: no findings"
