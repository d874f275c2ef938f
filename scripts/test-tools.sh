#!/usr/bin/env bash
# The tools `make test` needs that install without root, set up inside the
# project the first time and reused after (`make test` runs this first):
#
# - rustfmt and clippy, through rustup where they are missing;
# - cargo-machete at the version pinned below, by `cargo install --locked
#   --root .tools` (so `.tools/bin/cargo-machete`, gitignored);
# - axe-core and TypeScript by `npm ci` into `tests/web/node_modules`
#   (gitignored), at the versions `tests/web/package-lock.json` pins, where
#   npm exists.
#
# What needs the system's package manager (npm itself, chromium and
# chromium-driver, shellcheck, systemd-analyze, caddy, util-linux `script`)
# is only looked for: each one missing is named here with its `apt-get
# install` line, and the tests that need it say they were skipped (under
# `CI=true` they fail instead). So no step stops for a missing tool.
set -euo pipefail
cd "$(dirname "$0")/.."

machete_version=0.9.2
tools=.tools

say() { printf 'test-tools: %s\n' "$*" >&2; }

for component in rustfmt clippy; do
    if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
        if command -v rustup >/dev/null 2>&1; then
            say "installing $component (rustup component add $component)"
            rustup component add "$component" </dev/null
        else
            say "no cargo $component and no rustup to add it: install Rust's $component"
            exit 1
        fi
    fi
done

if ! "$tools/bin/cargo-machete" --version 2>/dev/null | grep -qx "$machete_version"; then
    say "installing cargo-machete $machete_version into $tools/ (once; reused after)"
    # On PATH while it installs, so cargo does not ask for it to be added:
    # make test runs it from there by name.
    PATH="$PWD/$tools/bin:$PATH" cargo install cargo-machete --locked \
        --version "$machete_version" --root "$tools" </dev/null
fi

# npm ci writes a marker of the lock file it installed; a changed lock file
# installs again.
web=tests/web
stamp=$web/node_modules/.package-lock.json
if command -v npm >/dev/null 2>&1; then
    if [ ! -f "$stamp" ] || [ "$web/package-lock.json" -nt "$stamp" ] \
        || [ ! -f "$web/node_modules/axe-core/axe.min.js" ] \
        || [ ! -x "$web/node_modules/.bin/tsc" ]; then
        say "installing axe-core and TypeScript into $web/node_modules (npm ci, once; reused after)"
        (cd "$web" && npm ci --no-audit --no-fund --loglevel=error </dev/null >/dev/null)
    fi
else
    say "no npm: the page's type check and accessibility checks will be skipped (apt-get install npm)"
fi

missing() {
    say "no $1: the tests that need it will be skipped (apt-get install $2)"
}
command -v chromium >/dev/null 2>&1 || missing chromium chromium
command -v chromedriver >/dev/null 2>&1 || missing chromedriver chromium-driver
command -v shellcheck >/dev/null 2>&1 || missing shellcheck shellcheck
command -v systemd-analyze >/dev/null 2>&1 || missing systemd-analyze systemd
command -v caddy >/dev/null 2>&1 || missing caddy caddy
command -v script >/dev/null 2>&1 || missing script util-linux
exit 0
