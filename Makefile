# The two commands README names are `make run` and `make test`.
CARGO ?= cargo

.PHONY: all build run test slurm-check bench fuzz reference clean

# The reference files live outside the repository (../shared in the project's workspace).
BOGGLE_REFERENCE ?= ../shared

all: build

build:
	$(CARGO) build --release

run: build
	./target/release/boggle

# Every crate of the workspace: formatting, lints, unit and integration
# tests, doctests, and the docs built with warnings denied.
test:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace --all-targets
	$(CARGO) test --workspace --doc
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

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
