//! Errors of configuring caches and policies.

use crate::geometry::{format_size, Geometry};
use crate::spec::PolicySpec;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    #[error("cache geometry: {0}")]
    Geometry(String),
    #[error("policy '{spec}': {what}")]
    Policy { spec: String, what: String },
    /// A table too large for the memory at hand: what it was for and the
    /// bytes that could not be allocated.
    #[error("cannot allocate {} for {what}: not enough memory", approx_size(*bytes))]
    OutOfMemory { what: String, bytes: u64 },
}

impl CacheError {
    /// The error of a table of `n` values of `T` for `what` that could not
    /// be allocated.
    pub(crate) fn out_of_memory<T>(n: usize, what: &str) -> CacheError {
        CacheError::OutOfMemory {
            what: what.to_string(),
            bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        }
    }

    /// Names the cache a table that could not be allocated was for: the
    /// policy `spec` on `geom`.
    pub(crate) fn in_cache(self, spec: &PolicySpec, geom: &Geometry) -> CacheError {
        match self {
            CacheError::OutOfMemory { what, bytes } => CacheError::OutOfMemory {
                what: format!("{what} of {spec} on {}", describe(geom)),
                bytes,
            },
            e => e,
        }
    }
}

/// `a 64GiB, 16-way cache (1073741824 lines)`.
fn describe(g: &Geometry) -> String {
    let ways = if g.sets == 1 {
        "fully associative".to_string()
    } else {
        format!("{}-way", g.ways)
    };
    format!(
        "a {}, {ways} cache ({} lines)",
        format_size(g.size()),
        g.blocks()
    )
}

/// `8GiB` where exact, else `4.3GiB`-like, one decimal.
fn approx_size(bytes: u64) -> String {
    let exact = format_size(bytes);
    if exact.ends_with("iB") || bytes < 1024 {
        return exact;
    }
    let (unit, m) = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        .into_iter()
        .find(|&(_, m)| bytes >= m)
        .unwrap_or(("KiB", 1 << 10));
    format!("{:.1}{unit}", bytes as f64 / m as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_names_the_table_its_size_and_the_cache() {
        let g = Geometry::from_size(64 << 30, crate::Ways::N(16), 64).unwrap();
        let e = CacheError::out_of_memory::<u64>(g.blocks(), "the tags")
            .in_cache(&"lru".parse().unwrap(), &g);
        assert_eq!(
            e.to_string(),
            "cannot allocate 8GiB for the tags of lru on a 64GiB, 16-way cache \
             (1073741824 lines): not enough memory"
        );
        assert_eq!(approx_size(3 << 29), "1536MiB");
        assert_eq!(approx_size((1 << 30) + 1), "1.0GiB");
        assert_eq!(approx_size(1000), "1000B");
    }
}
