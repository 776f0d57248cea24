//! The Attribute Cache miss-ratio curves of Section V-A (Figures 1,
//! 11-13): every policy of [`curve_set`] at every size, the points in
//! parallel, and where each curve reaches the lower bound.

use gfxcache_cache::{Progress, ProgressFn, Ways};
use rayon::prelude::*;

use super::report::{Curve, Reach, ReachPoint};
use super::{StudyError, TcorConfig};
use crate::{reaches_bound, sweep, Binning, PbLayout, Replacement};

/// The Attribute Cache policies at each associativity: Figure 11 (fully
/// associative), 12 (1, 2, 4, 8 ways) and 13 (4 ways).
pub fn curve_set() -> Vec<(Ways, Vec<Replacement>)> {
    use Replacement::*;
    vec![
        (Ways::Full, vec![Opt, Lru]),
        (Ways::N(1), vec![Opt, Lru]),
        (Ways::N(2), vec![Opt, Lru]),
        (Ways::N(4), vec![Opt, Lru, Mru, Drrip]),
        (Ways::N(8), vec![Opt, Lru]),
    ]
}

/// The smallest Attribute Cache that holds every render pass whole (its
/// attributes in the Attribute Buffer, its primitives in the Primitive
/// Buffer): from there on every policy misses exactly LB.
pub(super) fn whole_frame_bytes(binnings: &[Binning]) -> u64 {
    binnings
        .iter()
        .map(|b| b.total_attributes().max(2 * u64::from(b.primitives())) * 48)
        .max()
        .unwrap_or(0)
}

/// The largest Attribute Cache a sweep of this frame may ask for: twice
/// the size that holds every render pass whole, as a power of two, and
/// never less than 4 MiB (the largest the paper sweeps). Past it a cache
/// adds memory and no information, and a mistyped size (`64GiB`) would
/// ask for tables that do not fit in memory.
pub(super) fn largest_useful(binnings: &[Binning]) -> u64 {
    whole_frame_bytes(binnings)
        .saturating_mul(2)
        .next_power_of_two()
        .max(4 << 20)
}

/// `sizes`, then doublings of the largest until one holds `whole` bytes:
/// the fully associative curves go that far, so that Figure 11 shows where
/// LRU reaches the bound too.
fn extended(sizes: &[u64], whole: u64) -> Vec<u64> {
    let mut out = sizes.to_vec();
    while let Some(&last) = out.last() {
        if last >= whole {
            break;
        }
        out.push(last * 2);
    }
    out
}

/// Every curve of [`curve_set`] at every size (the fully associative ones
/// [`extended`]), the points in parallel.
pub(super) fn curves(
    binnings: &[Binning],
    setup: &TcorConfig,
    progress: ProgressFn<'_>,
) -> Result<Vec<Curve>, StudyError> {
    let set = curve_set();
    let full_sizes = extended(&setup.sizes, whole_frame_bytes(binnings));
    let jobs: Vec<(usize, Ways, Replacement, u64)> = set
        .iter()
        .enumerate()
        .flat_map(|(i, (w, rs))| {
            let sizes = if *w == Ways::Full {
                &full_sizes
            } else {
                &setup.sizes
            };
            rs.iter()
                .flat_map(move |r| sizes.iter().map(move |s| (i, *w, *r, *s)))
        })
        .collect();
    let total = jobs.len() as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    progress(Progress::items("attribute cache", 0, total));
    let layout = PbLayout::interleaved();
    let points = jobs
        .par_iter()
        .map(|&(_, w, r, s)| {
            let p = sweep::point(binnings, &layout, s, w, r, setup.queue_depth);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(Progress::items("attribute cache", n, total));
            p
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(StudyError::Sweep)?;
    let mut curves: Vec<Curve> = Vec::new();
    for (&(_, w, r, _), p) in jobs.iter().zip(points) {
        let (policy, ways) = (policy_name(r), ways_name(w));
        match curves.last_mut() {
            Some(c) if c.policy == policy && c.ways == ways => c.points.push(p),
            _ => curves.push(Curve {
                policy,
                ways,
                points: vec![p],
            }),
        }
    }
    Ok(curves)
}

fn policy_name(r: Replacement) -> String {
    match r {
        Replacement::Opt => "opt",
        Replacement::Lru => "lru",
        Replacement::Mru => "mru",
        Replacement::Drrip => "drrip",
    }
    .to_string()
}

fn ways_name(w: Ways) -> String {
    match w {
        Ways::Full => "full".to_string(),
        Ways::N(n) => n.to_string(),
    }
}

pub(super) fn reach(curves: &[Curve], tolerance: f64) -> Reach {
    let points: Vec<ReachPoint> = curves
        .iter()
        .map(|c| ReachPoint {
            policy: c.policy.clone(),
            ways: c.ways.clone(),
            bytes: reaches_bound(&c.points, tolerance),
        })
        .collect();
    let full = |policy: &str| {
        points
            .iter()
            .find(|p| p.ways == "full" && p.policy == policy)
            .and_then(|p| p.bytes)
    };
    let lru_over_opt_full = match (full("lru"), full("opt")) {
        (Some(l), Some(o)) if o > 0 => Some(l as f64 / o as f64),
        _ => None,
    };
    Reach {
        tolerance,
        curves: points,
        lru_over_opt_full,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fully_associative_sizes_extend_until_the_frame_fits() {
        assert_eq!(extended(&[4, 8], 8), vec![4, 8]);
        assert_eq!(extended(&[4, 8], 9), vec![4, 8, 16]);
        assert_eq!(extended(&[4, 8], 33), vec![4, 8, 16, 32, 64]);
        assert_eq!(extended(&[], 33), Vec::<u64>::new());
        assert_eq!(largest_useful(&[]), 4 << 20);
    }
}
