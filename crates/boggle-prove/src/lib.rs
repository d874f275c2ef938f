//! `boggle prove`: a branch-and-bound proof of the best boards of a size,
//! after Dan Vanderkam's method (arXiv 2507.02117), in our own code.
//!
//! # How it works
//!
//! Every board is in exactly one *class*: each cell holds one bucket of
//! letters (by default, up to 9 cells, `aeiouy bcdfgjkmpqvwxz hlnrst` and
//! on the corners vowels and the rest: 639 classes on 3x3 after the 8
//! symmetries). A class's word paths are the
//! (cell, letter) sets of every path that spells a word, each sorted in one
//! cell order (centre, edges, corners, each block's cells with the fewest
//! letters first: [`tree::Layout`]) and packed
//! into a 128-bit key. Sorted, the keys are the *orderly* tree of sum nodes
//! (points plus children) and choice nodes (the best of a cell's letters):
//! [`tree::Prover`] computes its bound in one pass over them. The bound is at
//! least the score of every board in the class: a board picks one letter per
//! choice node, and what it then sums counts each of its words at least once
//! (a word spelled with the same letters on the same cells along several
//! paths counts once). A class whose bound is under the target is done.
//! Otherwise the first two positions are forced by *merging*: for each
//! letter, the keys that skip the position and those with that letter there
//! (the letter cleared) are merged into one sorted list, whose bound is
//! tighter than the choice node's (a merged sum node takes the best of its
//! children's sums, not the sum of their bests). For a list whose bound
//! still reaches the target the tree is built and walked depth-first: the
//! rest of the cells are forced in the same order, each pending choice node
//! of a cell replaced by its child for each letter; the bound of a partial
//! board is the points collected plus the bounds of the choices still
//! pending, those of each later position counted together (a board holds
//! one letter there for all of them: the best letter's sum over their
//! children, not the sum of each choice's best); a letter whose bound falls
//! under the target is dropped, and a complete board that is left is scored
//! exactly by [`boggle_engine::search::Searcher`].
//!
//! Classes that differ only in their corners form a *group*
//! ([`classes::Group`]): its word paths are collected once, with every letter
//! on the corners, forced on its first two positions once for the whole
//! group, and each forced list built into one tree for all the group's
//! classes: each node holds a bound per class (its bound in that class's
//! own tree), in 16-bit vector lanes, and one walk serves them all, going on
//! in the lanes where a letter's bound reaches the target (and, on a corner,
//! whose bucket holds the letter). A class's
//! recorded bound is the highest met on its way down (at least its best
//! board's score), so a class pruned with its group carries the group's. Classes are
//! deduplicated under the board's symmetries (8 for a square, 4 for a
//! rectangle, the mirror without going up), reading buckets in the forcing
//! order so a group's classes are canonical together; so are the boards found.
//!
//! [`shard`] deals the groups to shards, writes one ndjson line per class,
//! resumes, and merges the shards' files into one result.
//!
//! # What was measured
//!
//! 3x3, ENABLE2K, classic rules, `--above 500`, one thread, on the shared
//! 2-core machine (the published proof's code: 523 CPU-s). "Estimated" is
//! `--sample` over 20-30 groups or classes; the full runs are in the README.
//!
//! - Inserting each word path into a pointer tree from the root (the paper's
//!   way): about 300 ns per node, almost all cache misses; the walk itself was
//!   under 1% of the time. 385 CPU-s estimated (4 buckets).
//! - Collecting the paths as sorted 128-bit keys and bounding them in one pass
//!   (the tree built only for classes whose bound reaches the target): 3-4x
//!   faster per class; 240 CPU-s estimated.
//! - Collecting paths was then most of the time, because a path is found again
//!   in every class that holds it: groups collect once per choice of
//!   non-corner buckets and filter per corner; the bound pass over the keys
//!   made one-pass and branch-light: 155.6 CPU-s measured (4 buckets).
//! - Forcing the first cells by filtering the keys (a merged, tighter bound,
//!   as the paper forces by merging subtrees) before the walk: 0, 1 and 2
//!   cells forced measured 174, 214 and 291 CPU-s estimated: the tighter
//!   bound does not pay for the filtering (so the walk starts at once; the
//!   switch was removed with the tree rewrite).
//! - Building the walked tree in one pass over the keys instead of
//!   recursively: 101 → 84 CPU-s estimated (3 buckets).
//! - Buckets: the paper's four make 34,960 classes; three
//!   (`aeiouy bcdfgjkmpqvwxz hlnrst`, 2,862 classes) about 0.6x the time:
//!   93.6 CPU-s measured for the whole proof (the same 42 boards as with four);
//!   two (vowels and the rest, 102 classes) 116 CPU-s measured.
//! - Bounding the last corner's classes straight from their parent's keys
//!   (never writing keys for classes that end there): within the noise of the
//!   shared machine (84-95 CPU-s estimated), kept as strictly less work.
//! - 4x4 (ENABLE2K, default buckets): a group's keys, with every letter on the
//!   four corners, take close to 1 GB; one group of 16 classes took 119.8
//!   CPU-s and another over 500 CPU-s (stopped), of 67,257 groups: the
//!   corners-free grouping that pays on 3x3 is too coarse for 4x4, where
//!   fixing more cells per group (fewer letters per collected path) is the
//!   next thing to measure. Measured since with `--sample 20 --per-class
//!   --seed 1`: single classes take 1 to 1,376 CPU-s; the 10 that finished in
//!   an hour averaged 244 CPU-s, so the whole proof is at least 72,000
//!   CPU-hours. The walk is the cost there; forcing the first cells by
//!   merging (tighter bounds high in the walk, as the paper does) is the
//!   next thing to try on 4x4, though it did not pay on 3x3. (Done since,
//!   2.2x on 3x4, below. With it and the tighter bound per letter, the same
//!   sample finished all 20 classes in 30 minutes, 89.6 CPU-s each on
//!   average: 26,600 CPU-hours estimated, 95% interval 1,200-51,900.)
//!
//! - 2026-11-23, the tree rewrite (one commit each, measured on the 3x3
//!   proof): one pass per key list splits a free cell into all of its
//!   buckets, with the bounds in vector lanes and the children lists written
//!   in the same pass; a flat tree written as its nodes close; a walk that
//!   bounds every letter before queueing any choice; provers kept between
//!   groups; the path's positions carried along instead of read back from
//!   the key; two free cells split per pass (up to 16 lanes, 12 for a pass of
//!   9); a pass's lanes for an entry from one table per two consecutive
//!   positions; a trie node's children found once per node for all its
//!   neighbours; 64-bit shifts where the key allows; 16-bit saturating lanes
//!   when the target fits. Together: 93.6 → 44.4 CPU-s for the whole 3x3
//!   `--above 500` proof (the same 42 boards).
//!
//! - 3x3's corners in two buckets (vowels and the rest; 639 classes instead
//!   of 2,862): full runs 46.2 CPU-s with three corner buckets, 38.7 and 40.0
//!   with two, 50.6 with one; collecting letter by letter (one AND gives the
//!   open neighbours that may hold each child letter).
//! - 3x4, `--above 1500`, `--sample` on 2 threads (seed 1): with the corners
//!   free in each group (the default) 7.1 CPU-hours estimated for the whole
//!   proof (95% interval 1.1-13.1; 20 of 1,863 groups, 1 GB peak); with two
//!   corners free 11.3 (7.3-15.3; 60 groups); with none, every class its own
//!   group, 9.9 (7.3-12.5; 200 classes). The goal, an hour on two threads, is
//!   about 3.5x away; grouping does not close it.
//! - The walk waits on memory: on 3x4 it is 83% of the time, and its hot
//!   instructions are loads of choice nodes and their children, queued at
//!   shallower depths anywhere in a tree of hundreds of megabytes. Loading a
//!   depth's choices, then their children, ahead of the pass over them (so
//!   the misses overlap instead of following one another): 3x4 `--sample 6
//!   --seed 1`, one thread, 24.6 and 26.0 → 19.6 and 19.7 CPU-s per group
//!   (1.3x). Prefetching the sum nodes a letter would queue as well: no
//!   change (19.78 against 19.78).
//!
//! - Forcing the first positions by merging, again (the walk now being the
//!   cost): 3x4 `--sample 6 --seed 1`, one thread, CPU-s per group: 16.6
//!   with none; per class, 10.4 with one position, 9.6 with two, 14.1 with
//!   three, 20.8 with four (each merge is a pass over the whole list, and
//!   most letters survive the third); two per group, before the corners are
//!   split, 8.9; the same with each surviving class's list written in a
//!   second pass instead of filtered from the group's while its tree is
//!   built, 6.8 (3x4 `--sample 20 --seed 1 --threads 2`: 6.63 → 3.01
//!   CPU-hours estimated). 3x3: 40.7-42.6 → 38.2 CPU-s. Forcing a third
//!   position per class on top: 11.2; splitting the third and fourth
//!   positions into their letters by filtering (one lane each) before
//!   building: 12.9 and 27.3 (most letters survive, and each gets a tree
//!   nearly as large). What is left is building the trees (about 40%: a
//!   class's tree has hundreds of thousands of nodes, most of them for the
//!   corners, while the walk takes a few thousand steps into it) and the
//!   walk (about 25%).
//!
//! - One tree for a group's classes, and the tighter bound per letter (both
//!   in the second session of 2026-11-23; 3x4 `--sample 6 --seed 1`, one
//!   thread, CPU-s per group, the machine's noise about 20% between equal
//!   runs): main 8.79 (8.41 an hour later). A tree per forced list with a
//!   bound per class in 16 lanes, walked once for all its classes instead of
//!   a tree and a walk per class: 5.72 (trees built 2,872 → 385 for the 90
//!   classes, building them 26.8 → 9.4 s with the lane split and list
//!   writing they replace; the walk 20.4 → 15.8 s). Each child holding its
//!   sum node (one miss instead of two) and every line of a choice's
//!   children loaded ahead: 5.31, 5.12. The walk's letters bounded with the
//!   later positions' pending choices summed per letter: 6.26 → 4.51 (the
//!   walk's calls 3.25 million → about a quarter); only from the 6th or 8th
//!   depth on, 4.83 and 5.26; with one position forced by merging instead of
//!   two, 5.41 (and 9.8 without the tighter bound); three, 8.0. 3x3: the
//!   same records (bounds and boards) as before, 35.4 CPU-s. The tighter
//!   bound must stay out of what is passed down: subtracted there, it counts
//!   again at every depth, and the brute-force tests fail.
//!
//! - The pending choices summed as they are queued (2026-11-24). On a
//!   heavy 4x4 group the tighter bound's pass over every later position's
//!   pending choices (at every call of the walk) was 47% of the time, the
//!   walk 36%. Each position's sums (its choices' bounds, their children's
//!   by letter) are now kept as choices are queued and taken off with
//!   wrapping arithmetic (exact: no sum passes its lane's root bound); the
//!   tighter bound is computed only when a letter passes the plain one, and
//!   only the walked letter's children are read. 4x4 `--above 3500`, one
//!   group each (`--sample 1 --seed S --threads 1`), old and new side by
//!   side on the two cores and then swapped, CPU-s: seed 2 13.9/13.6 →
//!   10.6/12.7, seed 4 32.6/34.8 → 24.4/26.9, seed 5 40.3/43.3 →
//!   33.3/25.3, seed 1's third group 204 → 150: about 1.35x. 3x3: 38.3 →
//!   35.0 CPU-s side by side, the same records. Slower and dropped: saving
//!   and restoring the sums of the positions a letter queues to instead of
//!   taking the choices off (806 against 580 CPU-s on seed 3's group: a
//!   position's sums are 0.8 KB in 16 lanes); leaving the free corners out
//!   of the tighter bound (280 against 186 on seed 1's third group: their
//!   gap prunes). No gain then: loading the queued choices' children ahead,
//!   or keeping the children's sum nodes and bounds in two arrays (both pay
//!   on the larger trees of 2026-11-25, below, and are kept).
//! - 4x4 sampled by groups, as the proof runs them (`--sample 30 --seed 1
//!   --threads 2`, this code): stopped after 46 minutes with 392 of 472
//!   classes done in 5,231 CPU-s (13.3 a class) and a group still running,
//!   so at least about 4,000 CPU-hours; the per-class estimates above
//!   (26,600) measured classes proved alone, without their group's shared
//!   tree. Groups are heavy tailed (12 to 770 CPU-s in those measured), so
//!   the heavy groups are where the next gain is: in them the walk's
//!   queueing (adding each queued choice's children's bounds, 16 lanes
//!   each) and taking off are now most of the time.
//! - The forcing order per group (2026-11-24, second session). Within the
//!   centre's block and the edges', each group forces its cells with the
//!   fewest letters first ([`tree::Layout::arrange`]; classes are still read
//!   in the fixed order, so their ids and the shards do not change). The
//!   order alone changes a 4x4 group's time up to 3x (`--sample 1 --seed S
//!   --threads 1`, CPU-s): seed 6's group 142.7 in the fixed order, 53.8
//!   with the top and bottom edges first (the published code's order),
//!   137.7 with the left and right first, 47.1 with the fewest letters
//!   first; seed 7's 169, 125.5, 184.8, 113; seed 3's 574 and 439 (top and
//!   bottom first). Fixed order and fewest first side by side, then
//!   swapped: seed 2 12.2/11.8 → 6.7/5.1, seed 5 32.7/28.6 → 22.3/16.4.
//!   Every non-corner cell by its letters alone (edge cells before centre
//!   ones that hold more): slower (seed 6 67.4, seed 7 231). 3x3: the same
//!   boards in every class, 36.7 against 37.9 CPU-s; 3x4 `--sample 6 --seed
//!   1`, side by side: 27.7/30.2 → 24.4/28.6. The 4x4 grouped sample
//!   (`--sample 30 --seed 1 --threads 2`) now finishes: 139.3 CPU-s per
//!   group, **2,600 CPU-hours** estimated (95% interval 1,340-3,870),
//!   slowest group 701 CPU-s, in 36.8 minutes. With the new order, a third
//!   position forced by merging (side by side, then swapped, against two):
//!   seed 6 47.8/46.7 against 59.7/52.8, seed 5 19.8/17.9 against
//!   26.0/16.7, but seed 2 16.5 against 7.1 (its trees are small, and 216
//!   merges are not); not kept. A third position forced only in lists
//!   still longer than [`tree`]'s `FORCE_MORE` after two (side by side
//!   against two everywhere, env-var scratch build): 2 million paths, seed
//!   7 109.3 → 69.9, seed 6 51.5 → 37.9, seed 5 15.5, seed 2 6.6 (as
//!   before); 3 million, seed 6 43.2; 4 million, 52.7; 1 million, seed 6
//!   46.8 and seed 5 18.5. Kept at 2 million (3x3's lists are all shorter:
//!   the same records). The 30-group 4x4 sample above was run before it;
//!   run again with it: 82.2 CPU-s per group, **1,540 CPU-hours** (95%
//!   interval 870-2,200), slowest group 373 CPU-s, 26.6 minutes.
//! - The walk's memory, again (2026-11-25; the forcing order and
//!   `FORCE_MORE` made the trees fewer and larger: seed 5's group walks 48
//!   trees of up to 5.6 million nodes each). A heavy group's profile (seed 7)
//!   is now the tree's build 29%, the walk 29%, the queueing 19%, the
//!   forcing by merging 17%; the queueing waits on the loads of the choices
//!   and their children's bounds. Kept: the children's bounds in an array of
//!   their own (two to a cache line, a choice's side by side), and, before a
//!   letter's choices are queued, a prefetch of them all and then of their
//!   children's bounds ([`tree`]'s `Tree::prefetch`; no gain when tried
//!   before, above, on smaller trees). Side by side, then
//!   swapped, two rounds, CPU-s: seed 6 38.4-44.0 → 34.6-37.4, seed 7
//!   71.8/76.9 → 70.0/72.9. Not kept: a log of the sums each queued choice
//!   overwrote, restored as the walk backs up instead of taking the choices
//!   off (seed 5 14.5/17.6 → 25.0/21.7: the log outgrows the caches);
//!   prefetching the pending choices' children on entering a position
//!   (no change); a 4th position forced by merging in lists still longer
//!   than 2 million (seed 7 63.0/61.3 → 75.6/70.5); within a block, ties
//!   in letters broken by the most (seed 7 68.3/62.1 → 75.2/82.9) or the
//!   fewest (no change) neighbours already forced; four buckets off the
//!   corners (the 3x3 ones: 2.1 million groups at 4.1 CPU-s, 2,420
//!   CPU-hours from 20 groups); a build for this CPU (`-C
//!   target-cpu=native`, AVX2): 4% on seed 7, not worth a second build;
//!   the trees in 2 MB pages (glibc's `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`,
//!   200 MB of them in use): seed 6 36.5 → 37.7, so the walk does not wait on
//!   the TLB; a third position forced from 1.2 million paths instead of 2:
//!   seed 3 100.2/100.7 → 100.4/95.5. Counted on seed 6's group (scratch
//!   build): 1.1 billion children's bounds added by the queueing, about 5
//!   per choice queued; a fifth of them leaves; 1% the same in every lane,
//!   but half of them one value in some lanes and 0 in the rest (a value
//!   and a 16-bit mask would hold them in 4 bytes instead of 32). Tried in
//!   its simplest form, each child's bound as 8 bytes (the value and its
//!   lanes, or an index into the whole bounds kept apart): seed 6 39.7/40.0
//!   → 55.3/55.9 CPU-s, side by side (a branch per child that goes either
//!   way half the time, and a scalar unpacking); not kept. Packed only
//!   where all of a choice's children pack (a flag on the choice, so one
//!   branch per choice): 36.8/37.4 → 53.8/54.5; with a branch-free
//!   packing test, 36.1/36.8 → 50.0/50.8: the build grows from about a
//!   quarter of seed 5's profile to 36%, and the walk and the queueing
//!   take as long as before; not kept either.
//!   The 30-group sample with this: 70.7 CPU-s per group, **1,320
//!   CPU-hours** (95% interval 750-1,890), slowest group 321 CPU-s, 19.1
//!   minutes. Seed 3's group, 439 CPU-s in the published code's order
//!   before, is now 98.
//! - What the walk reaches (2026-11-25, second session). Counted on seed
//!   6's group: 15.5 million of the 248 million choice nodes built (6%)
//!   are ever queued, under 0.5% of those more than six levels below the
//!   root, while writing the nodes was 60% of the build (the same pass
//!   without writes: 5.6 s against 14.8). And no list forced by merging in
//!   four heavy groups was under the target (0 of 952), so their bounds
//!   (17% of seed 6's time) pruned nothing. Kept, side by side then
//!   swapped, CPU-s: (1) the tree written six levels of sum nodes deep,
//!   the sum nodes there with choices left as stubs that the walk grows
//!   when it reaches them ([`tree`]'s `BUILT` and `Tree::grow`; 5 levels
//!   about the same, 4 and 7 slower); (2) before queueing a walked
//!   letter's children's choices at every later position, the next
//!   position's alone, and a check that one of its letters passes (38% of
//!   the steps stop there); (3) no bound for lists longer than 250,000
//!   paths ([`tree`]'s `BOUNDED`); (4) a choice node without its bound (8
//!   bytes instead of 40: the walk takes the best of its children's, which
//!   it reads anyway). Seed 7 72.7/72.8 → 57.4/62.9 with (1)-(2) and the
//!   bound skipped for lists forced further, → 55.0/56.9 with (3), →
//!   53.6/58.8 with (4); seed 6 37.7/38.0 → 33.1/34.7 → 25.9/31.2 → 23.9-26.2;
//!   seed 2 4.75/5.13 → 3.54/3.86 with (3). 3x3: the same records in every
//!   class, 33.3/34.4 CPU-s against 38.7/36.6. Not kept: the later
//!   positions' choices queued in two more stages, each checked like (2)
//!   (the corners first: seed 7 58.2/58.6 against 60.7/62.4, seed 6
//!   29.4/34.7 against 28.5/32.8; the rest first: no change); `FORCE_MORE`
//!   at 1 million (no change) or 4 million (seed 7 54-59 → 100). The
//!   30-group sample with all four: 59.6 CPU-s per group, **1,110
//!   CPU-hours** (95% interval 610-1,610), slowest group 280 CPU-s, 15.9
//!   minutes (2,121 → 1,785 CPU-s for the sample: 1.19x, less than the
//!   single groups above, 1.2-1.4x).
//!
//! - The machine changed (2026-11-25, third session): an AVX-512 EPYC on
//!   which the same code runs the 3x3 proof in 18.1 CPU-s (31.7 before) and
//!   seed 7's group in 29 (53.6); danvk/hybrid-boggle's 3x3 proof takes 400
//!   CPU-s here (523 before). Measured first on it: the children of a sum
//!   node's choices written in one block and up to 8 lines of it
//!   prefetched (an earlier session's unfinished change): no gain (seed 5
//!   6.95/6.98 → 6.93/6.98, seed 6 15.0/14.6 → 15.2/14.8, seed 7 29.2/29.2
//!   → 29.8/29.9), not kept; the thresholds again, side by side on seed 6:
//!   `BUILT` 5 and 7, `FORCE_MORE` 1 and 4 million, `BOUNDED` 60,000 and 1
//!   million all as good or worse than today's (21.6 CPU-s with `FORCE_MORE`
//!   at 4 million, against 14.8). Each tree's levels chosen by its slack
//!   (root bound less target), with the slack known in advance: at best 1.5%
//!   on seed 6 (the written levels are a small part of the build: the pass
//!   that bounds every node is most of it).
//! - Kept: the build and the walk compiled for AVX-512 or AVX2 where the
//!   processor has them, chosen at run time (`engine::cpu::widest`; the
//!   baseline build has no unsigned 16-bit maximum or comparison, which the
//!   16 lanes use at every node). Side by side, then swapped: seed 5
//!   6.85/6.99 → 6.28/6.31, seed 6 15.17/15.35 → 14.03/14.38, seed 7
//!   27.90/28.83 → 25.60/26.28 CPU-s (7-9%; a whole build for this CPU,
//!   `-C target-cpu=native`, gave 8-9%, x86-64-v3 5%, x86-64-v2 3%). 3x3:
//!   the same records in every class. Not kept: each entry's lanes taken from
//!   the split's tables of two positions (as `Split::admits`) instead of a
//!   mask per position (seed 6 13.56/14.07 → 13.37/13.81, seed 7
//!   26.79/27.37 → 26.96/27.19).
//!
//! - Kept: the lists of one forcing share a base (`tree::Base`). The lists
//!   a position's letters make by merging share the paths that skip the
//!   position (on seed 6's group 605,000 of each depth-3 list's 700,000 to
//!   1 million), and each list's tree bounded them again: 196 million paths
//!   passed by the builds of that group, from 16.8 million collected. Now
//!   the first list's tree writes the shared paths' tree first (the base,
//!   recording where each of its sum nodes begins and ends), and each
//!   list's pass, when a sum node opens on a shared path that the next path
//!   with the forced letter does not reach, takes the base's node whole and
//!   steps over its paths: 126 of the 196 million on seed 6, the bases
//!   passing 26 million once. Stubs of the base that a walk grows are put
//!   back before the next list's tree. Side by side against the commit
//!   before, 3 rounds: seed 5 6.31 → 6.04, seed 6 14.16 → 13.57, seed 7
//!   26.15 → 25.91 CPU-s (medians; the walk over the shared nodes is
//!   faster too, as they stay in cache from one list to the next). Taking
//!   only the base's nodes of at least 3 or 8 paths: slower than taking
//!   none (15.0 and 15.3 against 13.3-13.5 CPU-s on seed 6). 3x3: the same
//!   records. Together with the compiled-for-AVX-512 walk, against the
//!   session's start (medians of 4-6 runs side by side): seed 5 6.79 →
//!   5.95, seed 6 14.90 → 13.65, seed 7 28.50 → 25.86 CPU-s (1.10x).
//!
//! Not tried for lack of time: fusing the last filter with the bound, a radix sort
//! of the keys, and 64-bit keys for boards of up to 12 cells.

mod build;
pub mod classes;
mod entry;
mod error;
mod flat;
mod force;
mod lanes;
mod layout;
mod orderly;
mod paths;
mod prover;
pub mod shard;
mod slack;
#[cfg(test)]
mod tests;
mod walk;

pub use entry::{MAX_CELLS, MAX_TRIE_NODES};
pub use error::{BadRecord, ProveError, ThreadsError};
pub use layout::Layout;
pub use prover::{Leaf, Prover, Work};
pub use walk::Scored;

/// The prover under the path it had before its split into modules.
pub mod tree {
    pub use crate::entry::MAX_TRIE_NODES;
    pub use crate::layout::Layout;
    pub use crate::prover::{Leaf, Prover, Work};
    pub use crate::walk::Scored;
}

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use boggle_engine::SearchRules;
use boggle_engine::trie::Trie;
use classes::{Buckets, Classes, Group};

/// What to prove: the rules (board size, scoring), the buckets and the target.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The rules boards are scored by.
    pub rules: SearchRules,
    /// The letter buckets that make the classes.
    pub buckets: Buckets,
    /// Find every board scoring at least this.
    pub above: u32,
    /// Whether classes that differ only in their corners are proved together
    /// (collected once); off, every class is proved on its own.
    pub grouped: bool,
}

impl Settings {
    /// Checks the board size the prover can handle.
    pub fn new(
        rules: impl Into<SearchRules>,
        buckets: Buckets,
        above: u32,
    ) -> Result<Settings, ProveError> {
        let rules: SearchRules = rules.into();
        if rules.cells() > MAX_CELLS || rules.cells() == 0 {
            return Err(ProveError::Size {
                rows: rules.rows,
                cols: rules.cols,
            });
        }
        Ok(Settings {
            rules,
            buckets,
            above,
            grouped: true,
        })
    }

    /// The classes of these settings.
    pub fn classes(&self) -> Classes {
        let classes = Classes::new(&self.rules, &self.buckets);
        if self.grouped {
            classes
        } else {
            classes.ungrouped()
        }
    }

    /// A board's letters as text (`Q` as `QU` under Qu rules).
    pub fn board_text(&self, letters: &[u8]) -> String {
        letters
            .iter()
            .map(|&l| {
                if self.rules.qu && l == b'Q' - b'A' {
                    "QU".to_string()
                } else {
                    char::from(b'A' + l).to_string()
                }
            })
            .collect()
    }
}

/// A board found scoring at least the target.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FoundBoard {
    /// Its score.
    pub score: u32,
    /// Its letters, row by row, in the form that sorts first under the symmetries.
    pub board: String,
}

/// The outcome of one class.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassRecord {
    /// The class id (mixed radix over the cells' buckets).
    pub class: u64,
    /// The class's upper bound.
    pub bound: u32,
    /// Its boards at or above the target.
    pub boards: Vec<FoundBoard>,
    /// CPU seconds spent on it.
    pub cpu: f64,
}

/// Live counters for a progress line and for stopping early.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    boards: AtomicU64,
    cpu_micros: AtomicU64,
    best: Mutex<Option<FoundBoard>>,
    stop: AtomicBool,
}

impl Progress {
    /// Fresh counters.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Classes finished so far and how many there are.
    pub fn classes(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Boards found at or above the target so far.
    pub fn boards(&self) -> u64 {
        self.boards.load(Ordering::Relaxed)
    }

    /// CPU seconds spent on finished classes.
    pub fn cpu(&self) -> f64 {
        self.cpu_micros.load(Ordering::Relaxed) as f64 / 1e6
    }

    /// The best board found so far.
    pub fn best(&self) -> Option<FoundBoard> {
        self.best.lock().map_or(None, |b| b.clone())
    }

    /// Asks the workers to stop after their current class.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn record(&self, record: &ClassRecord) {
        self.done.fetch_add(1, Ordering::Relaxed);
        self.boards
            .fetch_add(record.boards.len() as u64, Ordering::Relaxed);
        self.cpu_micros
            .fetch_add((record.cpu * 1e6) as u64, Ordering::Relaxed);
        let Some(top) = record.boards.iter().max() else {
            return;
        };
        if let Ok(mut best) = self.best.lock()
            && best.as_ref().is_none_or(|b| top > b)
        {
            *best = Some(top.clone());
        }
    }
}

/// CPU time of the calling thread, in seconds.
#[cfg(unix)]
pub fn thread_cpu() -> f64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

/// CPU time of the calling thread, in seconds (without a thread clock, wall
/// time since the first call stands in).
#[cfg(not(unix))]
pub fn thread_cpu() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// The letters of each cell in class `class` (by cell, letters 0 = A).
pub fn class_letters(settings: &Settings, classes: &Classes, class: u64) -> Vec<Vec<u8>> {
    let (rows, cols) = (settings.rules.rows, settings.rules.cols);
    classes
        .digits(class)
        .iter()
        .enumerate()
        .map(|(cell, &d)| settings.buckets.for_cell(rows, cols, cell)[usize::from(d)].clone())
        .collect()
}

/// Proves the classes of one group with a reusable prover, leaving out those
/// `skip` names; the records come in no particular order.
pub fn prove_group(
    prover: &mut Prover<'_>,
    settings: &Settings,
    classes: &Classes,
    group: &Group,
    skip: &dyn Fn(u64) -> bool,
) -> Vec<ClassRecord> {
    let (rows, cols) = (settings.rules.rows, settings.rules.cols);
    let wanted: std::collections::HashSet<u64> = group
        .classes
        .iter()
        .copied()
        .filter(|&c| !skip(c))
        .collect();
    let Some(&first) = group.classes.first() else {
        return Vec::new();
    };
    if wanted.is_empty() {
        return Vec::new();
    }
    let order = classes.order();
    let fixed = order.len() - classes.free();
    let mut letters = class_letters(settings, classes, first);
    for &cell in &order[fixed..] {
        letters[cell] = (0..26).collect();
    }
    let free: Vec<Vec<Vec<u8>>> = order[fixed..]
        .iter()
        .map(|&cell| settings.buckets.for_cell(rows, cols, cell).to_vec())
        .collect();
    // A class id is its group's id with the free cells' digits added at their places.
    let mut base = classes.digits(first);
    for &cell in &order[fixed..] {
        base[cell] = 0;
    }
    let base_id = classes.id(&base);
    let places: Vec<u64> = order[fixed..]
        .iter()
        .map(|&cell| {
            let mut one = vec![0u8; order.len()];
            one[cell] = 1;
            classes.id(&one)
        })
        .collect();
    let id_of = |digits: &[u8]| {
        base_id
            + digits
                .iter()
                .zip(&places)
                .map(|(&d, &p)| u64::from(d) * p)
                .sum::<u64>()
    };
    let mut records = Vec::with_capacity(wanted.len());
    let mut last = thread_cpu();
    prover.prove_group(
        &letters,
        &free,
        settings.above,
        &mut |digits| wanted.contains(&id_of(digits)),
        &mut |digits, bound, found| {
            let mut boards: Vec<FoundBoard> = found
                .into_iter()
                .map(|(letters, score)| FoundBoard {
                    score,
                    board: settings.board_text(&classes.canonical_board(&letters)),
                })
                .collect();
            boards.sort_unstable_by(|a, b| b.cmp(a));
            boards.dedup();
            let now = thread_cpu();
            records.push(ClassRecord {
                class: id_of(digits),
                bound,
                boards,
                cpu: now - last,
            });
            last = now;
        },
    );
    records
}

/// Proves the classes of `groups` on `threads` threads, leaving out those
/// `skip` names, and hands each record to `sink` as it finishes (in no
/// particular order). Stops early, without an error, when `progress` is
/// stopped; the records returned are those finished, by class id.
pub fn prove_groups<F>(
    trie: &Trie,
    settings: &Settings,
    groups: &[Group],
    skip: &(dyn Fn(u64) -> bool + Sync),
    threads: usize,
    progress: &Progress,
    sink: F,
) -> Result<Vec<ClassRecord>, ProveError>
where
    F: Fn(&ClassRecord) -> Result<(), ProveError> + Sync,
{
    if trie.len() > MAX_TRIE_NODES {
        return Err(ProveError::Dictionary { nodes: trie.len() });
    }
    let classes = settings.classes();
    let todo: usize = groups
        .iter()
        .map(|g| g.classes.iter().filter(|&&c| !skip(c)).count())
        .sum();
    progress.total.fetch_add(todo as u64, Ordering::Relaxed);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| ProveError::Threads(ThreadsError::Pool(e)))?;
    let records = Mutex::new(Vec::with_capacity(todo));
    // Provers are kept between groups (rayon may call a per-job `init` for
    // every group), so their large lists are allocated once per thread.
    let provers: Mutex<Vec<Prover<'_>>> = Mutex::new(Vec::new());
    pool.install(|| {
        groups.par_iter().with_max_len(1).try_for_each(|group| {
            if progress.is_stopped() {
                return Ok(());
            }
            let mut prover = provers
                .lock()
                .ok()
                .and_then(|mut p| p.pop())
                .unwrap_or_else(|| Prover::new(trie, settings.rules));
            let done = prove_group(&mut prover, settings, &classes, group, skip);
            if let Ok(mut provers) = provers.lock() {
                provers.push(prover);
            }
            for record in &done {
                sink(record)?;
                progress.record(record);
            }
            if let Ok(mut records) = records.lock() {
                records.extend(done);
            }
            Ok(())
        })
    })?;
    let mut records = records.into_inner().unwrap_or_default();
    records.sort_by_key(|r| r.class);
    Ok(records)
}

/// What a set of class records adds up to.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Classes accounted for.
    pub classes: u64,
    /// Classes whose bound reached the target (they were searched inside).
    pub searched: u64,
    /// The highest class bound.
    pub max_bound: u32,
    /// Every board found, best first, once each up to symmetry.
    pub boards: Vec<FoundBoard>,
    /// CPU seconds over all classes.
    pub cpu: f64,
}

impl Summary {
    /// Adds up records (of distinct classes) proved against `above`.
    pub fn of<'a>(records: impl IntoIterator<Item = &'a ClassRecord>, above: u32) -> Summary {
        let mut summary = Summary {
            classes: 0,
            searched: 0,
            max_bound: 0,
            boards: Vec::new(),
            cpu: 0.0,
        };
        for record in records {
            summary.classes += 1;
            summary.searched += u64::from(record.bound >= above);
            summary.max_bound = summary.max_bound.max(record.bound);
            summary.boards.extend(record.boards.iter().cloned());
            summary.cpu += record.cpu;
        }
        summary.boards.sort_unstable_by(|a, b| b.cmp(a));
        summary.boards.dedup();
        summary
    }

    /// The `proved: ...` line.
    pub fn proved_line(&self, above: u32) -> String {
        let best = self.boards.first().map_or_else(
            || "none".to_string(),
            |b| format!("{} {}", b.board, b.score),
        );
        format!(
            "proved: {} boards score >= {above}; best: {best}",
            self.boards.len()
        )
    }
}
