#!/usr/bin/env bash
# Installs what the build and tests need and is missing. Safe to run repeatedly.
set -euo pipefail

swift_bin=${SWIFT_BIN:-/opt/swift/usr/bin}
if ! command -v swift >/dev/null 2>&1 && [ ! -x "$swift_bin/swift" ]; then
    echo "setup: the Swift 6 toolchain is missing (expected at $swift_bin); install Swift 6.1 or newer first" >&2
    exit 1
fi

# Debian packages the project needs: the C libraries CanopyServer bridges to, and pkg-config to find them.
packages=(pkg-config libjson-c-dev libwebsockets-dev libsqlite3-dev)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

# Python packages the end-to-end tests use.
if ! python3 -c "import websockets" >/dev/null 2>&1; then
    echo "setup: installing the Python package websockets"
    python3 -m pip install -q websockets
fi
