#!/bin/sh
# The manual check of `boggle tui` (issue 7): a whole timed game in tmux at
# 80x24 (words typed and traced, rejected words, pause, help, the time running
# out, browsing missed words with their paths), each stage captured into
# $OUT/NN-stage.txt. Reverse-video cells are shown with spaces as '░'.
# Usage: scripts/tui-tmux-check.sh [path/to/boggle]   (needs tmux and python3)
set -eu
BOGGLE=$(realpath "${1:-target/debug/boggle}")
WORDS=$(realpath words.txt)
OUT=${OUT:-/tmp/boggle-tui-check}
rm -rf "$OUT" && mkdir -p "$OUT/data"
S=boggle-tui-check
tmux kill-session -t $S 2>/dev/null || true
tmux new-session -d -s $S -x 80 -y 24 \
  "XDG_DATA_HOME=$OUT/data $BOGGLE tui --seed 42 --time 30 --dict $WORDS; echo EXIT=\$?; stty -a | grep -o -- '-\\?icanon'; sleep 600"
cap() {
  sleep "${2:-0.4}"
  tmux capture-pane -p -e -t $S | python3 -c '
import re, sys
for line in sys.stdin.read().split("\n"):
    out, rev = [], False
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
        if m.group(2) is not None:
            out.append("\u2591" if rev and m.group(2) == " " else m.group(2))
            continue
        codes, j = (m.group(1) or "0").split(";"), 0
        while j < len(codes):
            if codes[j] in ("38", "48"):
                j += 3 if codes[j + 1:j + 2] == ["5"] else 5
                continue
            rev = {"0": False, "": False, "7": True, "27": False}.get(codes[j], rev)
            j += 1
    print("".join(out).rstrip())
' > "$OUT/$1.txt"
}
keys() { for k in "$@"; do tmux send-keys -t $S "$k"; done; }
cap 01-start 1
keys w e i g;            cap 02-typing-traced
keys h t Enter;          cap 03-accepted
keys w i t h Enter g e m Enter
keys h i t Enter;        cap 04-rejected-no-up
keys x y z Enter;        cap 05-rejected-not-a-word
keys w e Enter;          cap 06-rejected-too-short
keys Tab;                cap 07-paused
keys Tab '?';            cap 08-help
keys Escape
cap 09-times-up 28
keys Down Down Down;     cap 10-missed-word-path
keys Down Down Down Down; cap 11-another-missed-word
keys q;                  cap 12-after-quit 1
cp "$OUT/data/boggle/records.tsv" "$OUT/records.tsv"
tmux kill-session -t $S
for f in "$OUT"/*.txt; do printf '==== %s\n' "$(basename "$f")"; cat "$f"; done
