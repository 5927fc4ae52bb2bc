# shellcheck shell=bash
# Shared helpers for the scripts in this folder. Source it; it defines functions and VPK_ROOT, nothing else.

VPK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Print a message to stderr and exit non-zero.
vpk_die() {
  printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
  exit 1
}

# Make sure `swift` (6.x) is on PATH, adding a toolchain found in a usual place if it is not.
vpk_ensure_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    local dir
    for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin /usr/local/swift/usr/bin "${HOME:-/root}/.local/share/swiftly/bin"; do
      if [ -x "$dir/swift" ]; then
        PATH="$dir:$PATH"
        export PATH
        break
      fi
    done
  fi
  command -v swift >/dev/null 2>&1 ||
    vpk_die "swift not found on PATH (also looked in /opt/swift/usr/bin). Install Swift 6.3 for Debian 12 from https://www.swift.org/install/linux/ and put its usr/bin on PATH."
  local version
  version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\..*/\1/p' | head -n 1)
  if [ -z "$version" ] || [ "$version" -lt 6 ]; then
    vpk_die "$(command -v swift) is not Swift 6 or newer ($(swift --version 2>&1 | head -n 1)); this package needs Swift 6.3."
  fi
}

# Make media/sample.mp4 (1280x720, 30 fps, 20 s, H.264 GOP 60 with B-frames + AAC) unless it exists. Prints its path.
vpk_make_sample() {
  local out="$VPK_ROOT/media/sample.mp4"
  if [ ! -s "$out" ]; then
    command -v ffmpeg >/dev/null 2>&1 || vpk_die "ffmpeg not found: run scripts/bootstrap"
    mkdir -p "$VPK_ROOT/media"
    local tmp="$VPK_ROOT/media/.sample.$$.mp4"
    # -nostdin: ffmpeg must never eat the commands meant for vpk on a shared stdin.
    if ! ffmpeg -nostdin -hide_banner -loglevel error -y \
      -f lavfi -i 'testsrc2=size=1280x720:rate=30:duration=20' \
      -f lavfi -i 'sine=frequency=440:beep_factor=4:sample_rate=48000:duration=20' \
      -map 0:v -map 1:a \
      -c:v libx264 -preset veryfast -g 60 -bf 2 -pix_fmt yuv420p \
      -c:a aac -b:a 128k -movflags +faststart -shortest "$tmp" </dev/null; then
      rm -f "$tmp"
      vpk_die "ffmpeg could not make $out"
    fi
    mv -f "$tmp" "$out"
  fi
  printf '%s\n' "$out"
}

# Build the release vpk (or the product named) and print its path. The Swift runtime and Foundation are linked
# statically: the binary then needs only glibc and FFmpeg's libraries at run time, and starts about 8 ms sooner (no
# symbol lookups through a dozen more shared libraries; measured with hyperfine on `vpk --version`, 35 → 27 ms). lld
# links it, since GNU ld warns about a mktemp reference inside the static Foundation. Quiet; the log is shown only if
# the build fails.
vpk_build_release() {
  local product=${1:-vpk} log
  log=$(mktemp "${TMPDIR:-/tmp}/vpk-build.XXXXXX")
  if ! swift build --package-path "$VPK_ROOT" -c release --product "$product" --static-swift-stdlib -Xswiftc -use-ld=lld \
    </dev/null >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    vpk_die "swift build -c release --product $product --static-swift-stdlib failed"
  fi
  rm -f "$log"
  printf '%s\n' "$(swift build --package-path "$VPK_ROOT" -c release --show-bin-path)/$product"
}
