#!/bin/sh
# Writes FOLDER/BuildCommit.swift for ScreenplayCLI: the git commit CHECKOUT
# is at and whether its tracked files differ from it, for `screenplay
# --version`. Plugins/BuildCommit runs it before every build.
#   scripts/build-commit.sh CHECKOUT FOLDER
# Not a git checkout, or no git: buildCommit is nil ("unknown commit").
# The file is rewritten only when its text changes, so an unchanged commit
# costs no recompilation; --no-optional-locks: a build never writes the index
# of the checkout it reads.
checkout=${1:?"build-commit: needs the checkout and the output folder"}
folder=${2:?"build-commit: needs the checkout and the output folder"}
commit=$(git -C "$checkout" rev-parse --short=7 HEAD 2>/dev/null) || commit=""
modified=false
if [ -n "$commit" ] && [ -n "$(git -C "$checkout" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  modified=true
fi
mkdir -p "$folder" || exit 73
{
  echo "// Written by scripts/build-commit.sh at build time; never committed."
  if [ -n "$commit" ]; then echo "let buildCommit: String? = \"$commit\""; else echo "let buildCommit: String? = nil"; fi
  echo "let buildTreeModified = $modified"
} >"$folder/BuildCommit.swift.new" || exit 73
if cmp -s "$folder/BuildCommit.swift.new" "$folder/BuildCommit.swift"; then
  rm -f "$folder/BuildCommit.swift.new"
else
  mv "$folder/BuildCommit.swift.new" "$folder/BuildCommit.swift"
fi
