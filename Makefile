# The two commands README names are `make run` and `make test`.
CARGO ?= cargo

.PHONY: all build run test bench fuzz clean

all: build

build:
	$(CARGO) build --release

run: build
	./target/release/boggle

test:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test --all-targets

bench:
	$(CARGO) bench

fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	$(CARGO) clean
