//! Which runs the study makes: the policy lists of the paper's figures, in
//! one place, so that the runs, the CSV files, the plots and the page agree.

/// The policies of the paper's Table 6, in the order of its Figure 12, and
/// Belady's OPT after them as the bound.
pub const TABLE6: &[&str] = &[
    "nru",
    "ship-mem",
    "gs-drrip",
    "gspztc",
    "gspztc-tse",
    "gspc",
    "gspc+ucd",
    "drrip+ucd",
    "opt",
];

/// The policies with GSPC's four state bits per block (Figure 14).
pub const ISO_OVERHEAD: &[&str] = &["lru", "drrip:bits=4", "gs-drrip:bits=4", "gspc"];

/// The policies whose frame rates Figures 15 to 17 compare with DRRIP+UCD.
pub const FPS_POLICIES: &[&str] = &["nru+ucd", "gs-drrip+ucd", "gspc+ucd"];

/// The policies of Figures 5 and 6: the bound and the two baselines.
pub const REUSE_POLICIES: &[&str] = &["opt", "drrip", "nru"];

/// The thresholds of Figure 11 besides GSPZTC's default (8).
pub const T_VALUES: &[u32] = &[2, 4, 16];

/// The runs at the main size: DRRIP (the baseline), Table 6 with OPT, the
/// `+ucd` runs of Figures 15-17, the iso-overhead set and GSPZTC at every
/// `t` of Figure 11, each once.
pub fn main_specs() -> Vec<String> {
    let t = T_VALUES.iter().map(|t| format!("gspztc:t={t}"));
    dedup(
        base_specs()
            .into_iter()
            .chain(ISO_OVERHEAD.iter().map(|s| s.to_string()))
            .chain(t),
    )
}

/// The runs at every other size (Figure 16): DRRIP, Table 6 with OPT, and
/// the `+ucd` runs.
pub fn other_specs() -> Vec<String> {
    base_specs()
}

fn base_specs() -> Vec<String> {
    dedup(
        std::iter::once("drrip")
            .chain(TABLE6.iter().copied())
            .chain(FPS_POLICIES.iter().copied())
            .map(str::to_string),
    )
}

fn dedup(specs: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in specs {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_policy_runs_once() {
        let main = main_specs();
        assert_eq!(main.len(), 18);
        assert_eq!(main[0], "drrip");
        for p in TABLE6
            .iter()
            .chain(ISO_OVERHEAD)
            .chain(FPS_POLICIES)
            .chain(REUSE_POLICIES)
        {
            assert!(main.iter().any(|m| m == p), "{p}");
        }
        assert_eq!(other_specs().len(), 12);
    }
}
