#!/usr/bin/env bash
# Regenerates words.txt from the `word-list` npm package (MIT licence, Sindre Sorhus;
# the list itself is the atebits/Words English list used by Letterpress).
# Keeps entries of three or more ASCII letters, upper-cased, sorted, one per line.
set -euo pipefail
version=4.1.0
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "word-list@$version" >/dev/null
tar xzf "word-list-$version.tgz"
LC_ALL=C grep -E '^[a-z]{3,}$' package/words.txt \
  | tr 'a-z' 'A-Z' | LC_ALL=C sort -u >"$here/words.txt"
cp package/license "$here/words.LICENSE"
echo "wrote $(wc -l <"$here/words.txt") words to $here/words.txt" >&2
