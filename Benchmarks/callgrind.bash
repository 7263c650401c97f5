# Sourced by `instruction-counts`, `typing-ratio` and `long-text-ratio`: builds PRODUCT in release
# and defines `instructions ARGUMENT...`, which prints the instructions one run of it takes under
# callgrind.
#
#   source Benchmarks/callgrind.bash InstructionCounts
#
# valgrind 3.19 cannot read the toolchain's DWARF 5, so the product runs from a copy without
# debug info. Needs valgrind (apt install valgrind).

# NB: Through the package's `release-build` plugin, not `swift build -c release`: a command
# plugin's build is the one package-benchmark makes, so this reuses the benchmarks' release build
# (and the macros' tools of the debug build), where `swift build -c release` would compile
# swift-syntax and every macro user again (Benchmarks/Support/ReleaseBuild).
swift package release-build "$1" >&2
readonly BUILT="$(swift build -c release --show-bin-path)/$1"
# NB: Beside the original, so that its run path still finds the package's shared libraries.
readonly BINARY="$BUILT.nodebug"
objcopy --strip-debug "$BUILT" "$BINARY"
trap 'rm -f "$BINARY"' EXIT

# NB: Hashing is seeded per process; with a fixed seed, hash tables probe alike on every run.
export SWIFT_DETERMINISTIC_HASHING=1

instructions() {
  local output
  output="$(mktemp)"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BINARY" "$@" 2> "$output" \
    || { cat "$output" >&2; rm -f "$output"; return 1; }
  sed -n 's/.*I *refs: *//p' "$output" | tr -d ','
  rm -f "$output"
}
