#!/usr/bin/env bash
# The Screenplay module's API documentation as static HTML, built with the
# toolchain's docc from the symbol graph of a build, and the check that every
# public symbol of Screenplay, Presenter, Signage and Fleet has a documentation comment
# (fails and lists those without).
#
#   scripts/docs.sh                   HTML in .build/docs/html
#   scripts/docs.sh --out DIR         HTML in DIR
#   scripts/docs.sh --symbol-graphs DIR --scratch-path DIR
#                                     where the symbol graph and the build go
#                                     (defaults under .build/docs)
#
# Browse with `python3 -m http.server -d .build/docs/html` and open
# /documentation/screenplay. Needs jq (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs/html
graphs=.build/docs/symbol-graphs
scratch=.build/docs/build
while (($#)); do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --symbol-graphs) graphs="$2"; shift 2 ;;
    --scratch-path) scratch="$2"; shift 2 ;;
    *) echo "docs.sh: unknown argument $1 (see the comment at the top of scripts/docs.sh)" >&2; exit 64 ;;
  esac
done
command -v jq >/dev/null || { echo "docs.sh: jq is missing; run scripts/setup.sh" >&2; exit 69; }
# Linux has no xcrun: docc sits next to swift in the toolchain.
docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
[ -x "$docc" ] || { echo "docs.sh: no docc at $docc (the toolchain should ship it next to swift)" >&2; exit 69; }

# A build of its own (its own scratch path), so the symbol-graph flags do not
# invalidate the everyday .build; every Swift module of the closure writes a
# graph, and DocC gets only Screenplay's (Screenplay.symbols.json and
# Screenplay@Other.symbols.json for extensions of other modules' types).
# Presenter's, Signage's and Fleet's graphs (the build's targets; Screenplay
# is in their closure) are checked for comments too.
# The compiler writes the graphs only when it compiles a module, so "all" is
# kept between runs (an up-to-date build writes nothing).
all="$graphs/all"
rm -rf "$graphs/Screenplay" "$graphs/Presenter" "$graphs/Signage" "$graphs/Fleet"
mkdir -p "$all" "$graphs/Screenplay" "$graphs/Presenter" "$graphs/Signage" "$graphs/Fleet"
for target in Presenter Signage Fleet; do
  swift build --scratch-path "$scratch" --target "$target" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$(readlink -f "$all")" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
done
[ -f "$all"/Screenplay.symbols.json ] || {
  echo "docs.sh: the build wrote no $all/Screenplay.symbols.json; remove $scratch and run again" >&2
  exit 70
}
cp "$all"/Screenplay.symbols.json "$graphs/Screenplay/"
cp "$all"/Screenplay@*.symbols.json "$graphs/Screenplay/" 2>/dev/null || true
for module in Presenter Signage Fleet; do
  [ -f "$all/$module.symbols.json" ] || {
    echo "docs.sh: the build wrote no $all/$module.symbols.json; remove $scratch and run again" >&2
    exit 70
  }
  cp "$all/$module.symbols.json" "$graphs/$module/"
  cp "$all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
done

# Members the compiler makes carry "::SYNTHESIZED::" in their identifier
# (hash(into:) of a raw-value enum) or have no source location
# (init(rawValue:)): there is no source to document.
undocumented=$(jq -r '
  .symbols[]
  | select(.accessLevel == "public" or .accessLevel == "open")
  | select(.identifier.precise | contains("::SYNTHESIZED::") | not)
  | select(.location != null)
  | select(.docComment == null)
  | "\(.location.uri // "?" | sub("^file://"; "")):\((.location.position.line // -1) + 1): \(.kind.displayName) \(.pathComponents | join("."))"
  ' "$graphs"/Screenplay/*.symbols.json "$graphs"/Presenter/*.symbols.json \
  "$graphs"/Signage/*.symbols.json "$graphs"/Fleet/*.symbols.json | sort -u)
if [ -n "$undocumented" ]; then
  echo "docs.sh: these public symbols of Screenplay, Presenter, Signage and Fleet have no documentation comment (add a /// comment that says what it is for):" >&2
  echo "$undocumented" >&2
  exit 65
fi

rm -rf "$out"
"$docc" convert Sources/Screenplay/Screenplay.docc \
  --additional-symbol-graph-dir "$graphs/Screenplay" \
  --fallback-display-name Screenplay --fallback-bundle-identifier org.screenplay.Screenplay \
  --transform-for-static-hosting --warnings-as-errors \
  --output-path "$out"
echo "docs.sh: HTML in $out (open documentation/screenplay/index.html through a web server)"
