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
//! Measured on `boggle prove`'s 4x4 groups (16 bounds of 16 bits side by
//! side, where SSE2 lacks unsigned 16-bit maxima and comparisons): see
//! `docs/notebook/2026-11-25-prove-avx512-epyc.md`.

/// Calls `f` compiled for the widest vector instructions this processor has.
#[inline]
pub fn widest<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if x86_64_v4() {
            // SAFETY: `v4` is compiled for exactly the features `x86_64_v4` found.
            return unsafe { v4(f) };
        }
        if x86_64_v3() {
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
