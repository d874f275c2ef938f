#!/usr/bin/env python3
"""Second scorer for docs/RECORDS.md: scores boards with danvk's
pure-Python Boggler (hybrid-boggle's boggle/boggler.py and boggle/trie.py,
imported unchanged from a checkout of his repository, which is not part of
this one), at any size, so a record of ours is checked by code we did not
write.

    DANVK=path/to/hybrid-boggle scripts/danvk-score.py WORDLIST ROWS COLS BOARD...

BOARD is row-major, one letter a cell (as `boggle best` prints it); danvk's
cells are column-major, so it is transposed before scoring. His scoring is
classic with 3+ letters (3-4: 1, 5: 2, 6: 3, 7: 5, 8+: 11) and Q as Qu.
MIN_LEN=4 scores words of 4 or more letters (the classic preset on 5x5 and
6x6) by handing his trie only the list's words of that length, so his code
still runs unchanged. Prints `BOARD: POINTS points, WORDS words`.
"""
import os
import sys
import tempfile


def main():
    checkout = os.environ.get("DANVK")
    if not checkout or len(sys.argv) < 5:
        sys.exit(__doc__)
    sys.path.insert(0, checkout)
    # His Python trie is recursive: a word of n letters takes n frames.
    sys.setrecursionlimit(10000)
    from boggle import neighbors
    from boggle.boggler import PyBoggler
    from boggle.trie import make_py_trie

    path, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    dims = (cols, rows)
    # His table holds sizes up to 5x5; his own function makes any other.
    neighbors.NEIGHBORS.setdefault(dims, neighbors.init_neighbors(*dims))
    min_len = int(os.environ.get("MIN_LEN", "3"))
    if min_len > 3:
        with open(path) as words, tempfile.NamedTemporaryFile("w", delete=False) as kept:
            kept.writelines(w for w in words if len(w.strip()) >= min_len)
        trie = make_py_trie(kept.name)
        os.unlink(kept.name)
    else:
        trie = make_py_trie(path)
    boggler = PyBoggler(trie, dims)
    boggler.collect_words = True
    for board in sys.argv[4:]:
        if len(board) != rows * cols:
            sys.exit(f"{board}: {len(board)} letters, not {rows}x{cols}")
        cells = "".join(board[r * cols + c] for c in range(cols) for r in range(rows))
        points = boggler.score(cells.lower())
        print(f"{board}: {points} points, {len(boggler.words)} words")


if __name__ == "__main__":
    main()
