//! Criterion benchmarks of the search engine: one board, a batch of boards,
//! and loading a dictionary, with the project's own words.txt (a large,
//! ENABLE-like list) and a small list cut from it. Boards are rolled from the
//! 1987 dice with a fixed seed, so every run solves the same boards.
//! The design's readable backtracking (`append_dfs_words`) runs beside the
//! engine as a baseline. `neighbourhood` times what a `boggle best` climb
//! scores from one board: every cell open in turn (one walk gives its 26
//! letters), every swap of two cells board by board, and both together
//! (`moves`: one walk a cell gives its letters and its swaps with later cells).

#![expect(
    clippy::disallowed_types,
    reason = "the benchmark builds its rules from a preset"
)]

use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::Arc;

use boggle::dictionary::EMBEDDED_WORDS;
use boggle::{Dictionary, GameBoard, Preset, Rules, WordFind, random};
use boggle_engine::QReads;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

fn boards(rules: &Rules, count: usize) -> Vec<GameBoard> {
    let mut rng = random::seeded(20251122);
    (0..count)
        .map(|_| GameBoard::random(rules, &mut rng))
        .collect()
}

fn dictionaries() -> [(&'static str, Arc<Dictionary>); 2] {
    let small: Vec<&str> = EMBEDDED_WORDS.lines().step_by(50).collect();
    [
        ("words.txt", Arc::new(Dictionary::embedded())),
        ("small", Arc::new(Dictionary::from_words(small))),
    ]
}

fn solve(c: &mut Criterion) {
    let rules = Rules::preset(Preset::Classic);
    let batch = boards(&rules, 1000);
    for (name, dictionary) in dictionaries() {
        let find = WordFind::with_rules(Arc::clone(&dictionary), rules.clone());
        let mut group = c.benchmark_group(format!("solve/{name}"));
        let mut searcher = find.searcher();
        group.bench_function("one_board", |b| {
            b.iter(|| searcher.score(black_box(&batch[0])))
        });
        group.throughput(Throughput::Elements(batch.len() as u64));
        group.bench_function("1000_boards", |b| {
            b.iter(|| batch.iter().map(|board| searcher.score(board)).sum::<u32>())
        });
        group.throughput(Throughput::Elements(1));
        group.bench_function("one_board_baseline_dfs", |b| {
            b.iter_batched(
                BTreeSet::new,
                |mut found| {
                    let mut chosen = [false; 16];
                    for cell in 0..16 {
                        find.append_dfs_words(
                            &batch[0],
                            &mut String::new(),
                            &mut found,
                            &mut chosen,
                            cell,
                        );
                    }
                    found
                },
                BatchSize::SmallInput,
            )
        });
        group.finish();
    }
}

fn neighbourhood(c: &mut Criterion) {
    let rules = Rules::preset(Preset::Classic);
    let board = &boards(&rules, 1)[0];
    let find = WordFind::with_rules(Arc::new(Dictionary::embedded()), rules.clone());
    let mut searcher = find.searcher();
    let faces = board.faces().to_vec();
    let cells = faces.len();
    let mut group = c.benchmark_group("neighbourhood/words.txt");
    group.bench_function("open_cells", |b| {
        b.iter(|| {
            (0..cells)
                .filter_map(|open| {
                    searcher.score_letters(4, 4, black_box(&faces), open, QReads::Qu)
                })
                .map(|scores| scores.iter().sum::<u32>())
                .sum::<u32>()
        })
    });
    group.bench_function("moves", |b| {
        b.iter(|| {
            (0..cells)
                .filter_map(|anchor| {
                    let later = !((1u32 << (anchor + 1)) - 1);
                    searcher.score_moves(4, 4, black_box(&faces), anchor, QReads::Qu, later)
                })
                .map(|scores| scores.letters.iter().chain(&scores.swaps).sum::<u32>())
                .sum::<u32>()
        })
    });
    group.bench_function("swaps", |b| {
        let mut swapped = faces.clone();
        b.iter(|| {
            let mut total = 0;
            for a in 0..cells {
                for other in a + 1..cells {
                    swapped.swap(a, other);
                    total += searcher.score_faces(4, 4, black_box(&swapped));
                    swapped.swap(a, other);
                }
            }
            total
        })
    });
    group.finish();
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group.sample_size(20);
    group.bench_function("words.txt", |b| {
        b.iter(|| Dictionary::parse(black_box(EMBEDDED_WORDS.as_bytes())))
    });
    group.finish();
}

criterion_group!(benches, solve, neighbourhood, load);
criterion_main!(benches);
