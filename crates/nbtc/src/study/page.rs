//! The study's page as data ([`gfxcache_report::Page`]): the setup in
//! words, the frame, a table per slide with ours and the slides' numbers
//! side by side and its figures after it, the cycles by category, the
//! counts, what the buffers cost, the sweeps, the machine and the unit as
//! JSON; and the suite's page: the mean over the scenes first, then each
//! scene's NBTC against the BTC, the sweeps' mean.

use gfxcache_cache::format_size;
use gfxcache_machine::issue_sentence;
use gfxcache_report::page::{pretty_json, thousands};
use gfxcache_report::{Column, Format, Page, Picture, Section, View};

use super::tables::{CATEGORIES, KNOBS};
use crate::config::MemoryPath;
use crate::storage::Storage;
use crate::study::report::NbtcReport;

/// What the NBTC's buffers cost, in a line: `RB 32 x 124 bits, WLB 32 x
/// 552 bits, BAB 32 x 28 bits = 2,816 B, 8.59% of the L1's 32KiB data
/// array`.
pub fn storage_line(s: &Storage) -> String {
    let buffers: Vec<String> = [("RB", &s.rb), ("WLB", &s.wlb), ("BAB", &s.bab)]
        .iter()
        .map(|(name, b)| format!("{name} {} x {} bits", b.entries, b.entry_bits))
        .collect();
    format!(
        "{} = {} B, {:.2}% of the L1's {} data array",
        buffers.join(", "),
        thousands(s.bytes),
        s.share_of_l1,
        format_size(s.l1_data_bytes)
    )
}

/// The picture of the frame of filter mode `filter` in a report's
/// directory, as `gfxcache nbtc --scene` renders the first mode's.
pub fn picture(filter: &str) -> String {
    format!("{filter}.png")
}

/// The key columns of a run: filter mode, latency, design.
fn run_keys(v: View) -> View {
    v.column("filter", "filter", Format::Plain)
        .column("latency", "latency", Format::Plain)
        .column("mode", "design", Format::Plain)
}

/// Slides 22-24's numbers: each design against the BTC, the slides'
/// beside (`scene` views of the suite's table add their scene first).
fn against_btc(v: View, counts: bool) -> View {
    let mut v = run_keys(v);
    if counts {
        v = v.column("cycles", "PS cycles", Format::Thousands);
    }
    v = v
        .column("cycles_change_percent", "vs BTC", Format::Signed)
        .with(Column::new("paper_cycles_change_percent", "paper", Format::Signed).paper("{}"))
        .column(
            "frame_cycles_change_percent",
            "frame cycles vs BTC",
            Format::Signed,
        )
        .column("miss_rate_percent", "miss rate", Format::Share);
    if counts {
        v = v.column("traffic_bytes", "traffic", Format::Bytes);
    }
    v.column("traffic_change_percent", "traffic vs BTC", Format::Signed)
        .with(
            Column::new("paper_traffic_change_max_percent", "paper", Format::Signed)
                .paper("at most {}"),
        )
}

fn knob_labels() -> Vec<(String, String)> {
    KNOBS
        .iter()
        .map(|k| (k.knob.to_string(), k.title.to_string()))
        .collect()
}

/// The sweeps' NBTC rows: knob, value (the unit's marked), the changes.
fn sweeps_view(v: View, counts: bool) -> View {
    let mut v = v
        .rows("mode", crate::config::Mode::Nbtc.name())
        .with(Column::new("knob", "knob", Format::Plain).labels(knob_labels()))
        .with(Column::new("value", "value", Format::Plain).mark("main", "{} (main)"));
    if counts {
        v = v
            .column("filter", "filter", Format::Plain)
            .column("latency", "latency", Format::Plain)
            .column("cycles", "NBTC PS cycles", Format::Thousands);
    }
    v.column("cycles_change_percent", "vs BTC", Format::Signed)
        .column("traffic_change_percent", "traffic vs BTC", Format::Signed)
        .column("miss_rate_percent", "miss rate", Format::Share)
        .column("nbtc_buffer_bytes", "NBTC buffers (B)", Format::Thousands)
}

fn setup(r: &NbtcReport) -> Vec<String> {
    let frames: Vec<String> = r
        .frames
        .iter()
        .map(|f| {
            format!(
                "{} ({} texture requests, {} texel lookups)",
                f.filter,
                thousands(f.requests),
                thousands(f.texel_lookups)
            )
        })
        .collect();
    let u = &r.unit;
    let latencies: Vec<String> = r.latencies.iter().map(u64::to_string).collect();
    let modes: Vec<&str> = r.modes.iter().map(|m| m.name()).collect();
    let memory = match u.memory {
        MemoryPath::Private => "Each unit has its own memory path.".to_string(),
        MemoryPath::SharedDram { clock_mhz, dram } => format!(
            "The units share one {} (ours), clocked at {clock_mhz} MHz: a block also waits \
             for its bank and bus behind every unit's requests.",
            dram.name()
        ),
    };
    vec![
        format!(
            "Frames, one per filter mode: {}. Each pixel processor has a texture unit with a \
             {} {}-way L1 of {}-byte blocks, a Retry Buffer of {}, a Waiting List Buffer of {} \
             and a Block Address Buffer of {} entries; hits take {} cycle(s), the filter {}; {} \
             {} fragments in flight. {memory} Memory latencies {} cycles; designs {} against \
             the blocking cache with serial fetches (btc).",
            frames.join("; "),
            format_size(u.l1_bytes),
            u.l1_ways,
            u.block_bytes,
            u.rb_entries,
            u.wlb_entries,
            u.bab_entries,
            u.hit_latency,
            u.filter_latency,
            issue_sentence(u.issue, r.machine.as_ref().map(|m| m.name.as_str())),
            u.fragments_in_flight,
            latencies.join(", "),
            modes.join(", "),
        ),
        "The slides' numbers (mRPsim, 8 pixel processors, the Taiji benchmark) are shown in \
         grey italics beside ours: the NBTC's pixel-shader cycles -12.47 % at 50 cycles and \
         -41.64 % at 300, and its memory traffic up to 11 % above the BTC's."
            .to_string(),
    ]
}

/// One scene's page.
pub fn page(r: &NbtcReport) -> Page {
    let pps = r.frames.first().map_or(0, |f| f.pixel_processors);
    let mut categories = run_keys(View::of("runs"));
    for c in &CATEGORIES {
        categories = categories.column(c.field, c.name, Format::Thousands);
    }
    let mut counts = run_keys(View::of("runs"));
    for (column, heading) in [
        ("requests", "requests"),
        ("texel_lookups", "texel lookups"),
        ("hits", "hits"),
        ("primary_misses", "primary misses"),
        ("secondary_misses", "secondary misses"),
        ("memory_requests", "memory requests"),
        ("all_hit_requests", "all-hit requests"),
        ("rb_max", "RB max"),
        ("wlb_max", "WLB max"),
        ("bab_max", "BAB max"),
    ] {
        counts = counts.column(column, heading, Format::Thousands);
    }
    let mut sections = vec![
        Section::new("Slides 22-24: each design against the blocking cache")
            .view(against_btc(View::of("runs"), true))
            .note(
                "PS cycles are the pixel processors' cycles summed (the slides' \"total PS \
                 cycles\"); frame cycles the slowest processor's. Changes are against the \
                 blocking cache with serial fetches at the same latency on the same frame.",
            )
            .figures(&["cycles_change.svg", "miss_rate.svg", "traffic.svg"]),
        Section::new("Slide 22: cycles by category")
            .view(categories)
            .figures(&["ps_cycles.svg"]),
        Section::new("Counts").view(counts),
        Section::new("What the NBTC's buffers cost (field widths ours)")
            .view(
                View::of("storage")
                    .column("buffer", "buffer", Format::Plain)
                    .column("entries", "entries", Format::Plain)
                    .column("field", "field", Format::Plain)
                    .column("bits", "bits", Format::Plain)
                    .column("entry_bits", "bits an entry", Format::Plain)
                    .column("buffer_bits", "bits the buffer", Format::Thousands),
            )
            .note(format!(
                "{}. The slides list each entry's fields but give no widths and no hardware \
                 cost; the widths are the unit's field_bits (--unit). FIFO pointers and \
                 comparators are not counted.",
                storage_line(&r.storage)
            )),
        Section::new("Sweeps (ours): one knob at a time, the NBTC against the BTC")
            .view(sweeps_view(View::of("sweeps"), true))
            .figures(&["sweep_*"]),
    ];
    if let Some(m) = &r.machine {
        sections.push(m.section());
    }
    sections.push(
        Section::new("The texture unit")
            .lead(
                "Every parameter (the slides' where they give one; the rest are ours). Its \
                 mode and memory latency are each run's own; the designs run:",
            )
            .code(pretty_json(&r.unit))
            .code(pretty_json(&r.modes))
            .note(format!(
                "{} distinct configurations replayed in {:.2} s.",
                r.runs, r.seconds
            )),
    );
    Page {
        title: format!("NBTC study: {}, {pps} pixel processors", r.name),
        intro: setup(r),
        picture: r.frames.first().map(|f| Picture {
            file: picture(&f.filter),
            caption: format!(
                "{} with {} filtering, as rendered tile by tile for this study ({} pixel \
                     processors).",
                r.name, f.filter, f.pixel_processors
            ),
        }),
        sections,
    }
}

/// The page of a suite of `scenes` (name, report), over its tables.
pub fn suite_page(scenes: &[(&str, &NbtcReport)]) -> Page {
    let names: Vec<&str> = scenes.iter().map(|(n, _)| *n).collect();
    let suite_scene = |v: View| {
        v.with(Column::new("scene", "scene", Format::Plain).link("{}/index.html", &["mean"]))
    };
    let mut intro = vec![format!(
        "The NBTC study on each scene of the suite ({}). The mean is the arithmetic mean of \
         the scenes' changes and miss rates, so each scene weighs the same; counts, which \
         differ by scene, are not averaged. The slides' numbers (the Taiji benchmark) are \
         shown in grey italics.",
        names.join(", ")
    )];
    if let Some((_, first)) = scenes.first() {
        intro.push(format!(
            "The NBTC's buffers (field widths ours): {}.",
            storage_line(&first.storage)
        ));
    }
    let scenes_view = suite_scene(View::of("runs").except("scene", "mean"))
        .rows("mode", crate::config::Mode::Nbtc.name())
        .column("filter", "filter", Format::Plain)
        .column("latency", "latency", Format::Plain)
        .column("cycles_change_percent", "PS cycles vs BTC", Format::Signed)
        .column(
            "frame_cycles_change_percent",
            "frame cycles vs BTC",
            Format::Signed,
        )
        .column("miss_rate_percent", "miss rate", Format::Share)
        .column("traffic_change_percent", "traffic vs BTC", Format::Signed);
    let mut seconds = Section::new("Wall-clock seconds of each scene's study");
    seconds.notes = scenes
        .iter()
        .map(|(n, r)| format!("{n}: {} configurations in {:.2} s.", r.runs, r.seconds))
        .collect();
    Page {
        title: format!("NBTC study: a suite of {} scenes", scenes.len()),
        intro,
        picture: None,
        sections: vec![
            Section::new("Mean over the scenes: each design against the blocking cache")
                .view(
                    against_btc(View::of("runs").rows("scene", "mean"), false).column(
                        "scenes",
                        "scenes",
                        Format::Plain,
                    ),
                )
                .figures(&["cycles_change.svg", "miss_rate.svg", "traffic_change.svg"]),
            Section::new("Scenes: the NBTC against the BTC")
                .view(scenes_view)
                .figures(&["cycles_change_scenes.svg"]),
            Section::new("Sweeps (ours), mean over the scenes: the NBTC against the BTC")
                .view(
                    sweeps_view(View::of("sweeps").rows("scene", "mean"), false).column(
                        "scenes",
                        "scenes",
                        Format::Plain,
                    ),
                )
                .figures(&["sweep_*"]),
            seconds,
        ],
    }
}
