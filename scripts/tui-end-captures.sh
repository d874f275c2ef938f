#!/bin/sh
# Captures of `boggle tui`'s end screen at each SIZE (default
# 80x24 and 60x20): a timed-out game with words found, a word's path, the
# next screenful (PgDn), the last words (End), then a second board (Enter)
# and its end screen with the session's games. Each stage goes to
# $OUT/WxH-NN-stage.txt; reverse-video cells are shown with spaces as '░'.
# Runs its own tmux server (`tmux -L $SERVER`), never the user's.
# Usage: scripts/tui-end-captures.sh [path/to/boggle] [SIZE...]   (needs tmux and python3)
set -eu
BOGGLE=$(realpath "${1:-target/debug/boggle}")
[ $# -gt 0 ] && shift
SIZES=${*:-80x24 60x20}
WORDS=$(realpath words.txt)
OUT=${OUT:-/tmp/tui-captures}
SERVER=${SERVER:-boggle-tui-captures}
S=captures
T="tmux -L $SERVER"
rm -rf "$OUT" && mkdir -p "$OUT"
cap() {
  sleep "${2:-0.5}"
  $T capture-pane -p -e -t $S | python3 -c '
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
' > "$OUT/$SIZE-$1.txt"
}
keys() { for k in "$@"; do $T send-keys -t $S "$k"; done; }
for SIZE in $SIZES; do
  W=${SIZE%x*} H=${SIZE#*x}
  rm -rf "$OUT/data-$SIZE" && mkdir -p "$OUT/data-$SIZE"
  $T kill-session -t $S 2>/dev/null || true
  $T new-session -d -s $S -x "$W" -y "$H" \
    "XDG_DATA_HOME=$OUT/data-$SIZE $BOGGLE tui --seed 42 --time 5 --dict $WORDS; echo EXIT=\$?; sleep 600"
  sleep 1
  keys w e i g h t Enter w i t h Enter g e m Enter
  cap 01-end-screen 6
  keys Down Down Down;       cap 02-missed-word-path
  keys PPage PPage NPage;    cap 03-next-screenful
  keys End;                  cap 04-last-words-found
  keys Enter
  sleep 1
  keys h i t Enter C-d;      cap 05-second-board-session 1
  keys q;                    cap 06-after-quit 1
  cp "$OUT/data-$SIZE/boggle/records.tsv" "$OUT/$SIZE-records.tsv"
  $T kill-session -t $S
done
$T kill-server 2>/dev/null || true
for f in "$OUT"/*.txt; do printf '==== %s\n' "$(basename "$f")"; cat "$f"; done
