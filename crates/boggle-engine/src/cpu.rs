//! Hot code compiled for the widest vector instructions the processor has,
//! chosen at run time: [`widest`] calls a closure from a function compiled
//! for AVX-512 (x86-64-v4) or AVX2 (x86-64-v3) where they are present, so
//! the closure's body, and everything inlined into it, uses them; elsewhere
//! it runs as the portable build compiled it (baseline x86-64).
//!
//! Only what is inlined gains: a function the closure calls but that stays
//! a call is compiled once, for the baseline. So a caller marks the hot
//! functions under it `#[inline(always)]`, and a recursive one calls itself
//! through [`widest`] again (each level then enters the wide copy).
//!
//! [`Simd`] names the levels; [`set_simd`] caps them for the whole process
//! (`--simd` on the command line), so a processor with AVX-512 can run
//! what one with only AVX2 runs, and `simd` is the level in force: the
//! widest the processor has unless capped.
//!
//! Measured on `boggle prove`'s 4x4 groups (16 bounds of 16 bits side by
//! side, where SSE2 lacks unsigned 16-bit maxima and comparisons): see
//! `docs/notebook/2026-11-25-prove-avx512-epyc.md`.

use std::sync::atomic::{AtomicU8, Ordering};

/// A level of vector instructions: what the vector walk and [`widest`] may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Simd {
    /// None: the bitmask walk, and the baseline build.
    None,
    /// AVX2 (x86-64-v3): the vector walk on eight 32-bit lanes of 256 bits.
    Avx2,
    /// AVX-512 (x86-64-v4, with VPOPCNTDQ): the vector walk with its masks and compresses.
    Avx512,
}

impl Simd {
    /// Every level, widest first.
    pub(crate) const ALL: [Simd; 3] = [Simd::Avx512, Simd::Avx2, Simd::None];

    /// The level's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Simd::None => "none",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }

    /// Whether this processor has the level (`None` always).
    pub fn present(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Simd::None => true,
                Simd::Avx2 => x86_64_v3(),
                Simd::Avx512 => {
                    x86_64_v4() && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Simd::None
        }
    }

    /// The widest level this processor has.
    pub(crate) fn widest_present() -> Simd {
        Simd::ALL
            .into_iter()
            .find(|level| level.present())
            .unwrap_or(Simd::None)
    }

    /// The levels this processor has, widest first.
    pub fn present_levels() -> Vec<Simd> {
        Simd::ALL.into_iter().filter(|l| l.present()).collect()
    }
}

/// A level asked for that the processor lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lacks {
    /// The level asked for.
    pub asked: Simd,
    /// The levels the processor has, widest first.
    pub present: Vec<Simd>,
}

impl std::fmt::Display for Lacks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.present.iter().map(|l| l.name()).collect();
        write!(
            f,
            "--simd {}: this processor lacks {}; it has {}",
            self.asked.name(),
            match self.asked {
                Simd::Avx512 => "AVX-512 (F, BW, VL and VPOPCNTDQ)",
                Simd::Avx2 => "AVX2 (x86-64-v3)",
                Simd::None => "nothing",
            },
            names.join(", ")
        )
    }
}

impl std::error::Error for Lacks {}

/// `asked` if `present` says the processor has it, else what it lacks.
/// [`set_simd`] passes [`Simd::present`]; a test can pass any answer.
pub fn check(asked: Simd, present: impl Fn(Simd) -> bool) -> Result<Simd, Lacks> {
    if present(asked) {
        Ok(asked)
    } else {
        Err(Lacks {
            asked,
            present: Simd::ALL.into_iter().filter(|&l| present(l)).collect(),
        })
    }
}

/// The level [`set_simd`] chose, plus one (0: none chosen, the widest present).
static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// Caps the vector instructions the whole process uses at `level`, which
/// this processor must have.
pub fn set_simd(level: Simd) -> Result<(), Lacks> {
    let level = check(level, Simd::present)?;
    CHOSEN.store(level as u8 + 1, Ordering::Relaxed);
    Ok(())
}

/// The level in force: the one [`set_simd`] chose, else the widest present.
pub(crate) fn simd() -> Simd {
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Simd::None,
        2 => Simd::Avx2,
        3 => Simd::Avx512,
        _ => Simd::widest_present(),
    }
}

/// Calls `f` compiled for the widest vector instructions this processor
/// has, up to the level in force (`simd`).
#[inline]
pub fn widest<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        let level = simd();
        if level == Simd::Avx512 && x86_64_v4() {
            // SAFETY: `v4` is compiled for exactly the features `x86_64_v4` found.
            return unsafe { v4(f) };
        }
        if level >= Simd::Avx2 && x86_64_v3() {
            // SAFETY: `v3` is compiled for exactly the features `x86_64_v3` found.
            return unsafe { v3(f) };
        }
    }
    f()
}

/// Whether the processor has what [`v4`] is compiled for.
#[cfg(target_arch = "x86_64")]
fn x86_64_v4() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && x86_64_v3()
}

/// Whether the processor has what [`v3`] is compiled for.
#[cfg(target_arch = "x86_64")]
fn x86_64_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// `f`, compiled for AVX-512 where it is inlined here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt")]
fn v4<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `f`, compiled for AVX2 where it is inlined here.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn v3<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Issues a load of the cache line at `ptr`: only a hint, it never faults,
/// whatever the address.
#[inline(always)]
pub fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint: it never faults and reads
        // nothing into the program, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closure runs once, whichever copy this processor takes, and
    /// its result comes back (recursion through `widest` included).
    #[test]
    fn widest_runs_the_closure_once_and_returns_its_result() {
        fn sum(n: u64) -> u64 {
            if n == 0 { 0 } else { n + widest(|| sum(n - 1)) }
        }
        let mut calls = 0;
        assert_eq!(
            widest(|| {
                calls += 1;
                sum(100)
            }),
            5050
        );
        assert_eq!(calls, 1);
    }
}
