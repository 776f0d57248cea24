//! The composed study's page as data ([`gfxcache_report::Page`]): the
//! machine and the units in words, the frame, each pair's speedups with
//! its figures, where the accesses were served, the stalls and the memory
//! side, the machine's description and the configuration as JSON; and
//! the suite's page: the mean over the scenes first, then each scene.

use gfxcache_cache::format_size;
use gfxcache_machine::issue_sentence;
use gfxcache_report::page::pretty_json;
use gfxcache_report::{Column, Format, Page, Picture, Section, View};

use gfxcache_nbtc::RequestUnit;
use gfxcache_nuca::MergedLookups;

use super::ComposeReport;

/// The picture of the frame in a report's directory, as `gfxcache compose
/// --scene` renders it.
pub const PICTURE: &str = "frame.png";

/// The key columns of a run.
fn keys(v: View) -> View {
    v.column("l1", "L1", Format::Plain)
        .column("placement", "placement", Format::Plain)
}

/// Each pair's speedups.
fn speedups(v: View) -> View {
    keys(v)
        .column("speedup", "speedup", Format::decimals(3))
        .column(
            "placement_speedup",
            "vs the first placement, same L1",
            Format::decimals(3),
        )
        .column("interaction", "interaction", Format::decimals(3))
}

/// Where each pair's accesses were served.
fn served(v: View, counts: bool) -> View {
    let mut v = keys(v)
        .column("local_percent", "local", Format::Share)
        .column("remote_percent", "remote", Format::Share)
        .column("l2_percent", "L2", Format::Share)
        .column("l2_hit_rate_percent", "L2 hit rate", Format::Share);
    if counts {
        v = v
            .column("accesses", "accesses", Format::Thousands)
            .column("remote_hits", "remote hits", Format::Thousands)
            .column("l2_requests", "L2 requests", Format::Thousands)
            .column("l2_requests_by_owner", "by an owner", Format::Thousands)
            .column("dram_reads", "DRAM reads", Format::Thousands);
    }
    v
}

/// Each pair's stalls and bus.
fn stalls(v: View, counts: bool) -> View {
    let mut v = keys(v)
        .column("stall_percent", "stalled", Format::Share)
        .column("bus_utilisation_percent", "bus busy", Format::Share)
        .column("bus_mean_wait_cycles", "mean bus wait", Format::Fixed2);
    if counts {
        v = v
            .column("bus_max_wait_cycles", "longest bus wait", Format::Plain)
            .column("unit_cycles", "unit cycles", Format::Thousands)
            .column("stalled_cycles", "stalled cycles", Format::Thousands)
            .column("requests", "requests", Format::Thousands)
            .column("memory_requests", "blocks sent", Format::Thousands)
            .column("mesh_flit_hops", "mesh flit-hops", Format::Thousands);
    }
    v
}

/// The frame's other L2 traffic: what each run's machine carried of it.
fn other_traffic(v: View) -> View {
    keys(v)
        .column("other_accesses", "accesses", Format::Thousands)
        .column("other_timed", "timed", Format::Thousands)
        .column("other_port_wait_cycles", "port wait", Format::Thousands)
        .column("other_bank_wait_cycles", "bank wait", Format::Thousands)
        .column("dram_other_reads", "DRAM reads", Format::Thousands)
        .column("dram_writes", "DRAM write-backs", Format::Thousands)
        .column(
            "tile_buffer_wait_cycles",
            "tile buffer wait",
            Format::Thousands,
        )
}

/// What the machines did with the frame's other L2 traffic, in words.
fn other_traffic_sentence(r: &ComposeReport) -> String {
    let t = &r.config.machine.timing;
    if r.trace.is_none() {
        return "The frame's other L2 traffic (vertex fetch, the Parameter Buffer, the tile \
                buffers) was not given (no --trace; for a rendered frame, no \
                --other-traffic): the L2 holds the texture caches' blocks only, and only \
                their requests take its banks and DRAM."
            .into();
    }
    let timed = match t.other_traffic {
        gfxcache_gpu::OtherTraffic::Untimed => {
            "it changes the L2's contents only and takes no time (--other-traffic untimed)"
                .to_string()
        }
        gfxcache_gpu::OtherTraffic::Tiles => format!(
            "a tile's accesses up to its last texture access in the trace (its loads, the \
             Tile Fetcher's reads) leave the other units' port from the tile's start, those \
             after it (the flush) from its end, one block every {} cycle(s) \
             (--other-port-cycles), each taking its L2 bank's cycle and a read miss its DRAM \
             bank and bus; a tile starts no earlier than the port has sent the traffic of the \
             tile {} before it (--tile-buffers; ours); no unit waits for it \
             (--other-traffic tiles)",
            t.other_port_cycles, t.tile_buffers
        ),
    };
    format!(
        "The frame's other L2 traffic, from its trace, a tile at a time at the tile barriers: \
         the binning pass before each tile changes the L2's contents only; {}. The L2's \
         write-backs of dirty victims {}.",
        timed,
        match (t.dram_writes, t.dram_banks()) {
            (true, Some(_)) => {
                "take DRAM's banks and buses after the read of the miss that evicted them \
                 (--dram-writes on), except those of untimed traffic"
            }
            _ => "take no time (--dram-writes off, or no DRAM banks)",
        }
    )
}

/// The machine, the units and the runs in words.
fn setup(r: &ComposeReport) -> Vec<String> {
    let c = &r.config;
    let m = &c.machine;
    let u = &c.unit;
    let modes: Vec<&str> = c.modes.iter().map(|m| m.name()).collect();
    let placements: Vec<&str> = c.placements.iter().map(|p| p.name()).collect();
    let first = |v: &[&str]| v.first().copied().unwrap_or_default().to_string();
    vec![
        format!(
            "{} fragment processors, each with a texture unit whose L1 is its {} {}-way \
             texture cache of {}-byte blocks, placed by the placement run; a {} {}-way L2 \
             in {} banks ({} cycles a hit) over a {}-bit bus; DRAM {} cycles{}; the Affinity \
             Table of {} buckets, {}. The texture units are the NBTC study's: hits take {} \
             cycle(s), the filter {}; {} {} fragments in flight; the NBTC's buffers {} (RB), \
             {} (WLB) and {} (BAB) entries; a request is {} (the machine's \
             fragment.request_unit unless --request-unit says otherwise). The units of a machine run in \
             step, {} cycles at a time; {}.",
            m.fps,
            format_size(m.tc_bytes),
            m.tc_ways,
            m.block_bytes,
            format_size(m.l2.bytes),
            m.l2.ways,
            m.l2.banks,
            m.l2.hit_cycles,
            m.timing.bus_width_bits,
            m.timing.dram_cycles,
            match m.timing.dram_banks() {
                None => " (no bank or bus waits, --dram-banks off)".to_string(),
                Some(d) => format!(
                    ", and the waits for {}'s banks and channel buses (--dram-banks on)",
                    d.dram.name()
                ),
            },
            m.buckets,
            match m.merged {
                MergedLookups::Counted =>
                    "counting a lookup a unit merged with a miss on its way as the texture access \
                     it is (merged lookups counted, --merged-lookups)",
                MergedLookups::Unseen =>
                    "counting only the misses sent, not the lookups a unit merged with them \
                     (merged lookups unseen, --merged-lookups)",
            },
            u.hit_latency,
            u.filter_latency,
            issue_sentence(u.issue, c.description.as_ref().map(|d| d.name.as_str())),
            u.fragments_in_flight,
            u.rb_entries,
            u.wlb_entries,
            u.bab_entries,
            match c.request_unit {
                RequestUnit::Sample => "a pixel's sample, a fragment a pixel",
                RequestUnit::Quad =>
                    "a quad's texture instruction (its pixels' distinct blocks), a fragment a quad",
            },
            c.window,
            if m.timing.sync_tiles {
                "a tile's end waits for every fragment processor to finish the tile (tile wait)"
            } else {
                "each fragment processor runs on to the next tile without waiting for the others"
            },
        ),
        format!(
            "Miss handlings {} under placements {}; the baseline is {} under {}. Speedup is \
             the baseline's frame cycles (the slowest unit's) over the run's; \"vs the first \
             placement\" the same miss handling's under {} over the run's; interaction that \
             over the first miss handling's under the same placement: above 1, the L1 and \
             the placement gain more together than apart (their speedups multiplied), so \
             the L1 makes the placement's remote hits and L2 requests cheaper to wait for.",
            modes.join(", "),
            placements.join(", "),
            first(&modes),
            first(&placements),
            first(&placements),
        ),
    ]
}

/// One frame's page.
pub fn page(r: &ComposeReport) -> Page {
    let mut sections = vec![
        Section::new("Each miss handling under each placement")
            .view(speedups(View::of("runs")).column(
                "frame_cycles",
                "frame cycles",
                Format::Thousands,
            ))
            .figures(&["speedup.svg", "placement_speedup.svg"]),
        Section::new("Where the accesses were served")
            .view(served(View::of("runs"), true))
            .note(
                "An access is a texel block a texture unit looks up (once per block a \
                 request) or sends for; the placement serves it from the processor's own \
                 cache, another's over the mesh, or the L2 (requests an owner made for the \
                 requester counted apart).",
            )
            .figures(&["served.svg"]),
        Section::new("Stalls and the memory side")
            .view(stalls(View::of("runs"), true))
            .figures(&["stalls.svg"]),
        Section::new("The frame's other L2 traffic")
            .view(other_traffic(View::of("runs")))
            .note(other_traffic_sentence(r)),
    ];
    if let Some(m) = &r.config.description {
        sections.push(m.section());
    }
    sections.push(
        Section::new("The configuration")
            .lead(
                "The machine as DTM-NUCA's configuration, then the texture units' (their \
                 own L1 and memory latency are not used: the machine is their memory):",
            )
            .code(pretty_json(&r.config.machine))
            .code(pretty_json(&r.config.unit))
            .note(format!(
                "{} runs replayed in {:.2} s.",
                r.runs.len(),
                r.seconds
            )),
    );
    Page {
        title: format!(
            "Composed study: {}, {} fragment processors",
            r.name, r.config.machine.fps
        ),
        intro: setup(r),
        picture: r.scene.as_ref().map(|scene| Picture {
            file: PICTURE.into(),
            caption: format!(
                "{scene}, as rendered tile by tile for this study ({} fragment processors).",
                r.config.machine.fps
            ),
        }),
        sections,
    }
}

/// The page of a suite of `scenes` (name, report), over its tables.
pub fn suite_page(scenes: &[(&str, &ComposeReport)]) -> Page {
    let names: Vec<&str> = scenes.iter().map(|(n, _)| *n).collect();
    let mean = |v: View| v.rows("scene", "mean");
    let each = |v: View| {
        v.except("scene", "mean")
            .with(Column::new("scene", "scene", Format::Plain).link("{}/index.html", &["mean"]))
    };
    let mut intro = vec![format!(
        "The composed study on each scene of the suite ({}). The mean is the arithmetic mean \
         of the scenes' speedups, shares and waits, so each scene weighs the same; counts, \
         which differ by scene, are not averaged.",
        names.join(", ")
    )];
    if let Some((_, first)) = scenes.first() {
        intro.extend(setup(first));
        intro.push(other_traffic_sentence(first));
    }
    let mut seconds = Section::new("Wall-clock seconds of each scene's study");
    seconds.notes = scenes
        .iter()
        .map(|(n, r)| format!("{n}: {} runs in {:.2} s.", r.runs.len(), r.seconds))
        .collect();
    Page {
        title: format!("Composed study: a suite of {} scenes", scenes.len()),
        intro,
        picture: None,
        sections: vec![
            Section::new("Mean over the scenes: each miss handling under each placement")
                .view(speedups(mean(View::of("runs"))))
                .figures(&["speedup.svg", "placement_speedup.svg"]),
            Section::new("Mean over the scenes: where the accesses were served")
                .view(served(mean(View::of("runs")), false))
                .figures(&["served.svg"]),
            Section::new("Mean over the scenes: stalls and the bus")
                .view(stalls(mean(View::of("runs")), false))
                .figures(&["stalls.svg"]),
            Section::new("Scenes: each placement under each miss handling")
                .view(speedups(each(View::of("runs"))))
                .figures(&["placement_speedup_scenes.svg"]),
            seconds,
        ],
    }
}
