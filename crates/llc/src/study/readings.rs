//! What a figure's numbers say beside the paper's, in a sentence computed
//! from the report for its caption: a claim the paper makes is checked on
//! our numbers, never assumed ([`gfxcache_report::Figure::reading`]).

use gfxcache_cache::format_size;

use super::paper;
use super::report::GspcReport;
use super::tables::{find, group_share, main_size};

/// The two largest of the paper's stream groups (name, percent), largest
/// first, by `share`.
fn largest_two(share: impl Fn(&str) -> f64) -> Vec<(&'static str, f64)> {
    let mut groups: Vec<(&'static str, f64)> = paper::STREAM_GROUPS
        .iter()
        .map(|(g, _)| (*g, share(g)))
        .collect();
    groups.sort_by(|a, b| b.1.total_cmp(&a.1));
    groups.truncate(2);
    groups
}

fn pair(groups: &[(&str, f64)]) -> String {
    let each: Vec<String> = groups
        .iter()
        .map(|(g, v)| format!("{g} ({v:.1} %)"))
        .collect();
    each.join(" and ")
}

/// Figure 4: whether render targets and textures make most of the LLC
/// accesses here, as in the paper.
pub fn fig04(r: &GspcReport) -> String {
    let ours = largest_two(|g| group_share(r, g));
    let theirs = largest_two(|g| paper::lookup(paper::STREAM_MIX, g).unwrap_or(0.0));
    let same = ours.iter().all(|(g, _)| theirs.iter().any(|(t, _)| t == g));
    if same {
        format!(
            "Here, as in the paper, the largest groups are {}; the paper: {}.",
            pair(&ours),
            pair(&theirs)
        )
    } else {
        format!(
            "Here the largest groups are {}; in the paper they are {}.",
            pair(&ours),
            pair(&theirs)
        )
    }
}

/// The epochs (`E0`, `E1`, `E2`) whose death ratio is above one half.
fn dying(ratios: &[f64; 3]) -> Vec<String> {
    (0..3)
        .filter(|&k| ratios[k] > 0.5)
        .map(|k| format!("E{k}"))
        .collect()
}

fn epochs_words(epochs: &[String]) -> String {
    match epochs {
        [] => "no epoch".to_string(),
        [one] => format!("only {one}"),
        many => many.join(" and "),
    }
}

fn ratios_words(ratios: &[f64; 3]) -> String {
    let each: Vec<String> = ratios.iter().map(|d| format!("{d:.2}")).collect();
    each.join(", ")
}

/// Figure 9: which of OPT's Z epochs die more often than not here, and in
/// the paper (only E0).
pub fn fig09(r: &GspcReport) -> String {
    let ours = &r.opt_epochs.z.death_ratios;
    let theirs = &paper::OPT_Z_DEATH;
    let (o, t) = (dying(ours), dying(theirs));
    let verb = |e: &[String]| if e.len() > 1 { "die" } else { "dies" };
    if o == t {
        format!(
            "Here, as in the paper, {} {} more often than not (death ratios {}; the paper: {}).",
            epochs_words(&o),
            verb(&o),
            ratios_words(ours),
            ratios_words(theirs)
        )
    } else {
        format!(
            "Here {} {} more often than not (death ratios {}); in the paper {} {} ({}).",
            epochs_words(&o),
            verb(&o),
            ratios_words(ours),
            epochs_words(&t),
            if t.len() > 1 { "do" } else { "does" },
            ratios_words(theirs)
        )
    }
}

/// `ratio` of misses over DRRIP's as a change: `11.8 % fewer`, `5.0 %
/// more`, or `as many` within 0.05 %.
fn change(ratio: f64) -> String {
    let pct = 100.0 * (ratio - 1.0);
    if pct.abs() < 0.05 {
        "as many".to_string()
    } else if pct < 0.0 {
        format!("{:.1} % fewer", -pct)
    } else {
        format!("{pct:.1} % more")
    }
}

/// `ratio` of misses over DRRIP's in a sentence's words: `11.8 % fewer
/// misses than DRRIP`, `as many misses as DRRIP`.
fn against_drrip(ratio: f64) -> String {
    match change(ratio).as_str() {
        "as many" => "as many misses as DRRIP".to_string(),
        c => format!("{c} misses than DRRIP"),
    }
}

/// Figure 12: what GSPC and GSPC+UCD save of DRRIP's misses at the main
/// size here, and in the paper.
pub fn fig12(r: &GspcReport) -> String {
    let Some(size) = main_size(r) else {
        return String::new();
    };
    let ran: Vec<String> = ["gspc", "gspc+ucd"]
        .iter()
        .filter_map(|p| {
            let ours = find(r, p, size)?.misses_vs_drrip;
            let theirs = paper::lookup(paper::MISSES_VS_DRRIP, p)?;
            Some(format!(
                "{} has {} (the paper: {})",
                p.to_uppercase(),
                against_drrip(ours),
                change(theirs)
            ))
        })
        .collect();
    if ran.is_empty() {
        return String::new();
    }
    format!(
        "At {} here, {}; the paper's are its averages at 8 MB.",
        format_size(size),
        ran.join(", and ")
    )
}
