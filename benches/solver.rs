//! Criterion benchmarks of the search engine: one board, a batch of boards,
//! and loading a dictionary, with the project's own words.txt (a large,
//! ENABLE-like list) and a small list cut from it. Boards are rolled from the
//! 1987 dice with a fixed seed, so every run solves the same boards.
//! The design's readable backtracking (`append_dfs_words`) runs beside the
//! engine as a baseline.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::Arc;

use boggle::dictionary::EMBEDDED_WORDS;
use boggle::{Dictionary, GameBoard, Preset, Rules, WordFind, random};
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

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group.sample_size(20);
    group.bench_function("words.txt", |b| {
        b.iter(|| Dictionary::parse(black_box(EMBEDDED_WORDS.as_bytes())))
    });
    group.finish();
}

criterion_group!(benches, solve, load);
criterion_main!(benches);
