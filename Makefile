# Canopy — the two commands users need are `make run` and `make test` (see README.md).
SWIFT_BIN ?= /opt/swift/usr/bin
export PATH := $(SWIFT_BIN):$(PATH)

.PHONY: test setup build bench bench-quick clean

## Install what is missing, build, and run every test.
test: setup
	swift build -Xswiftc -warnings-as-errors
	swift test
	swift build -c release --product canopy-bench
	.build/release/canopy-bench --sizes 1000 --edits 50

## Install what is missing (system packages; nothing is needed yet beyond the Swift toolchain).
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
