# The two commands README names are `make run` and `make test`.
CARGO ?= cargo

.PHONY: all build run test tools web-check web-protocol slurm-check bench fuzz reference clean

# The reference files live outside the repository (../shared in the project's workspace).
BOGGLE_REFERENCE ?= ../shared

all: build

build:
	$(CARGO) build --release

run: build
	./target/release/boggle

# The tools the checks need that install without root, inside the project:
# cargo-machete into .tools/, axe-core and TypeScript into tests/web/node_modules
# (where npm exists), once, reused after; what needs the system's package
# manager is named with its apt-get line (scripts/test-tools.sh).
tools:
	scripts/test-tools.sh

# Every crate of the workspace: formatting, no unused dependency (cargo
# machete, from .tools/), lints (the console-only build too:
# --no-default-features, without the tui, net and serve features; and the
# terminal client without the server's crate, so Cargo refuses any use of
# the server from the client's code), the fuzz targets
# built (their own workspace under fuzz/, so a changed API cannot leave them
# broken until the next fuzzing run), unit and integration
# tests (the page's TypeScript check among them: tests/it/web_check.rs),
# doctests, and the docs built with warnings denied.
test: tools
	$(CARGO) fmt --all --check
	$(CARGO) fmt --manifest-path fuzz/Cargo.toml --check
	.tools/bin/cargo-machete
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy --bin boggle --no-default-features -- -D warnings
	$(CARGO) clippy --bin boggle --no-default-features --features net -- -D warnings
	$(CARGO) check --manifest-path fuzz/Cargo.toml --bins --quiet
	$(CARGO) test --workspace --all-targets
	$(CARGO) test --workspace --doc
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

# The TypeScript compiler checks the page's JavaScript alone (strict, JSDoc
# types, nothing emitted), installed by `make tools` at the version
# tests/web/package-lock.json pins.
TSC = tests/web/node_modules/.bin/tsc
web-check: tools
	@test -x $(TSC) || { echo "make web-check: no $(TSC): install npm (apt-get install npm), then make tools" >&2; exit 2; }
	$(TSC) -p crates/boggle-net/src/web/js

# Writes the page's view of the protocol (crates/boggle-net/src/web/js/
# messages.d.ts and protocol.js) from the protocol's Rust types; a test fails
# while the checked-in files differ from what the types generate.
web-protocol:
	BOGGLE_REGENERATE=1 $(CARGO) test -p boggle-protocol --lib typescript

# deploy/slurm-array.sh and deploy/slurm-hunt.sh through a throwaway one-node Slurm cluster (installs
# slurm-wlm and munge as root where missing); DICT, SIZE, ABOVE, SHARDS override.
slurm-check: build
	scripts/slurm-check.sh

bench:
	$(CARGO) bench

reference:
	BOGGLE_REFERENCE=$(BOGGLE_REFERENCE) $(CARGO) test --release --test it -- --ignored reference::

fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	$(CARGO) clean
