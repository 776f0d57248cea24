//! The study's page as data ([`gfxcache_report::Page`]): the setup in
//! words and the frame, a table per figure with ours and the paper's side
//! by side and the figure after it, DTM-NUCA-Dist under both readings of
//! the announced count, the organizations' counts, bus and energy, the
//! sweeps and quad assignments with theirs, the machine and the model's
//! configuration; and the suite's page: the mean over the scenes first,
//! beside the paper's, then each scene. Every table a view of
//! [`super::tables`] (the writer lets a wide one scroll in its own box);
//! what no table holds (the effective capacity, the energy's parts) is
//! said in words computed from the report.

use gfxcache_cache::format_size;
use gfxcache_machine::issue_sentence;
use gfxcache_report::page::{pretty_json, thousands};
use gfxcache_report::page::{seconds_per_scene, seconds_words};
use gfxcache_report::{Column, Format, Page, Picture, Section, View};

use super::report::NucaReport;
use super::tables::{announced_readings, paper_effective_bytes, Metric};
use super::tables::{ENERGY, L2_ALL, L2_TEXTURE, LOCAL_HITS, SPEEDUP};
use crate::replay::OrgKind;
use crate::OtherTraffic;

/// A share as the page writes one: one decimal (`66.3%`).
fn share(column: &str, heading: &str) -> Column {
    let mut c = Column::new(column, heading, Format::decimals(1));
    c.template = "{}%".into();
    c
}

/// The paper's share of `metric`, set apart.
fn paper_share(metric: Metric) -> Column {
    let mut c = share(metric.paper_column, "paper");
    c.paper = true;
    c
}

/// A change against private caches: `-41.8%`, `+16.9%`.
fn signed(column: &str, heading: &str) -> Column {
    Column::new(column, heading, Format::Signed)
}

/// The paper's change of `metric`, set apart.
fn paper_signed(metric: Metric) -> Column {
    Column::new(metric.paper_column, "paper", Format::Signed).paper("{}")
}

/// An organization's main figures against private caches, as the views
/// of sweeps, assignments and scenes show them.
fn main_columns(v: View) -> View {
    v.with(share(LOCAL_HITS.column, "local hits"))
        .with(signed(L2_TEXTURE.column, "L2 texture requests"))
        .with(signed(SPEEDUP.column, "speedup"))
        .with(signed(ENERGY.column, "energy"))
}

/// A row per organization with every figure against private, the paper's
/// beside each it gives (`v`: the organizations' rows to show).
fn figures_view(v: View) -> View {
    v.column("organization", "organization", Format::Plain)
        .with(share(LOCAL_HITS.column, "local hits"))
        .with(paper_share(LOCAL_HITS))
        .with(share("remote_hit_percent", "remote hits"))
        .with(share("l2_hit_percent", "L2 hits"))
        .with(share("l2_miss_percent", "L2 misses"))
        .with(signed(L2_TEXTURE.column, "L2 texture requests (Fig 6)"))
        .with(paper_signed(L2_TEXTURE))
        .with(signed(L2_ALL.column, "L2 all streams (Fig 6)"))
        .with(paper_signed(L2_ALL))
        .with(signed(SPEEDUP.column, "speedup (Fig 9)"))
        .with(paper_signed(SPEEDUP))
        .with(signed(ENERGY.column, "energy (Fig 10)"))
        .with(paper_signed(ENERGY))
        .with(signed("gpu_energy_change_percent", "GPU energy"))
        .with(signed("memory_energy_change_percent", "memory energy"))
        .column(
            "mean_latency_cycles",
            "mean latency (cycles)",
            Format::Fixed2,
        )
}

const FIGURES_NOTE: &str = "Hits and misses are shares of the texture accesses; the rest are \
    changes against private caches of the same frame and machine (speedup: private's cycles \
    over the organization's, minus one). The paper gives one \"L2 accesses\" number per \
    organization, set beside both of ours.";

/// The setup in words.
fn setup(r: &NucaReport) -> Vec<String> {
    let f = &r.frame;
    let trace = r.trace.as_deref().unwrap_or("none");
    vec![
        format!(
            "Texture requests {}, L2 trace {trace}. The frame: {} fragment processors fed by \
             {} quad assignment, {} tiles, {} texture requests ({} texture block accesses), \
             {} other L2 accesses, {} shader operations, {} cycles of shader work: {} Texture \
             caches of {}, {}-way, {}-byte blocks; a shared L2 of {}.",
            r.requests,
            f.fps,
            f.assignment,
            thousands(f.tiles),
            thousands(f.texture_requests),
            thousands(f.texture_accesses),
            thousands(f.other_accesses),
            thousands(f.shader_instructions),
            thousands(f.work_cycles),
            issue_sentence(r.issue, r.machine.as_ref().map(|m| m.name.as_str())),
            format_size(r.config.tc_bytes),
            r.config.tc_ways,
            r.config.block_bytes,
            format_size(r.config.l2.bytes),
        ),
        contexts_words(r),
        "The paper's values (DTM-NUCA, Section V: averages over its games on a machine of 32 \
         fragment processors) are shown in grey italics beside ours."
            .into(),
    ]
}

/// DTM-NUCA-Dist under both readings of the announced count (the sweep's
/// rows of the knob), if the study ran both.
fn announced(r: &NucaReport) -> Option<Section> {
    if announced_readings(r).is_empty() {
        return None;
    }
    let view = View::of("sweeps")
        .rows("knob", "announced_count")
        .rows("organization", OrgKind::DtmDist.name())
        .with(Column::new("value", "announced count", Format::Plain).mark("main", "{} (main)"));
    Some(
        Section::new("DTM-NUCA-Dist: the announced count a claim must beat (ours)")
            .view(main_columns(view))
            .note(
                "Between broadcasts a node claims a bucket when its own saturated counter \
                 beats, by the margin, the count the owner announced at the last epoch \
                 broadcast: kept as announced, or halved as the owner's own counter was at the \
                 epoch's end. The paper does not say; both readings on the main frame, against \
                 the same private caches.",
            ),
    )
}

/// Figure 1: a row per number of caches holding the block, the share in
/// more than one beside the paper's in words.
fn replication(r: &NucaReport) -> Section {
    let p = &r.replication;
    let mut caches = Column::new("caches", "block after a texture access", Format::Plain);
    caches.template = "in {} cache(s)".into();
    Section::new(&format!(
        "Figure 1: replication with {} private caches (the paper's with 4)",
        p.fps
    ))
    .view(
        View::of("replication")
            .rows("reference", "")
            .with(caches)
            .with(share("share_percent", "texture accesses")),
    )
    .note(format!(
        "In more than one cache: {:.1}% of the texture accesses; the paper's, with 4: {:.1}%.",
        p.replicated_percent, r.paper.replicated_percent
    ))
    .figures(&["fig1_replication.svg"])
}

/// Figure 7: the private sizes studied, then what each DTM-NUCA form's
/// L2 requests match, beside the paper's, in words.
fn capacity(r: &NucaReport) -> Section {
    let largest = r.capacity.iter().map(|p| p.tc_bytes).max();
    let mut section = Section::new("Figure 7: private texture caches by size").view(
        View::of("capacity")
            .except("l2_requests", "")
            .column("tc_bytes", "texture cache", Format::Size)
            .column("l2_requests", "L2 requests", Format::Thousands)
            .with(signed("l2_change_percent", "against the main size"))
            .with(share("local_hit_percent", "local hits"))
            .column("cycles", "cycles", Format::Thousands),
    );
    for k in [OrgKind::Dtm, OrgKind::DtmDist] {
        let Some(row) = r.row(k) else { continue };
        let ours = match (r.effective_capacity(k), largest) {
            (Some(b), _) => format!(
                "no more than private caches of {}, its effective capacity",
                format_size(b)
            ),
            (None, Some(b)) => format!(
                "fewer than even the largest private caches studied ({}): an effective \
                 capacity of more than that",
                format_size(b)
            ),
            (None, None) => "no private size studied to compare with".into(),
        };
        let paper = paper_effective_bytes(&r.paper, k).map_or(String::new(), |b| {
            format!(" The paper's, with 16KiB caches: {}.", format_size(b))
        });
        section = section.note(format!(
            "{} with {} caches: {} L2 requests, {ours}.{paper}",
            k.name(),
            format_size(r.config.tc_bytes),
            thousands(row.result.stats.l2_requests),
        ));
    }
    section.figures(&["fig7_capacity.svg"])
}

/// The fragment processors' contexts and tiles, in words (ours).
fn contexts_words(r: &NucaReport) -> String {
    let t = &r.config.timing;
    let holds = match t.context_unit {
        crate::ContextUnit::Fragment => {
            "a fragment (its requests one after another, each after the previous one's data; a \
             new fragment on the context free first)"
        }
        crate::ContextUnit::Request => {
            "a request (each on the next context in turn, a fragment's requests overlapping)"
        }
    };
    let tiles = if t.sync_tiles {
        "each tile ends when its slowest fragment processor does"
    } else {
        "each fragment processor runs on past a tile's end"
    };
    let request = match r.request_unit {
        crate::RequestUnit::Quad => {
            "a quad's texture instruction (its live pixels' distinct blocks, after four lanes \
             of its slowest pixel's work)"
        }
        crate::RequestUnit::Pixel => "a pixel's sample (a quad's texel fetch one request)",
        crate::RequestUnit::Sample => {
            "each of the renderer's requests alone, a pixel's sample or fetch"
        }
    };
    format!(
        "A texture request is {request} (the machine's fragment.request_unit unless \
         --request-unit says otherwise). Each fragment processor keeps {} context(s), each \
         holding {holds}; {tiles}.",
        t.contexts
    )
}

/// The bus to the L2, in words.
fn bus_words(r: &NucaReport) -> String {
    let t = &r.config.timing;
    let occupancy = if t.bus_occupancy {
        "held by one transfer at a time, later ones queueing first come first served"
    } else {
        "a fixed latency with no queueing (occupancy off): busy cycles are the beats it \
         carried, and a utilisation above 100% is more than one bus can carry"
    };
    let channels = match t.bus_channels {
        crate::BusChannels::Shared => "one shared bus",
        crate::BusChannels::Split => "a request channel and a reply channel",
    };
    let mesh = if t.l2_attach == crate::L2Attach::Bus {
        ""
    } else {
        " The NUCA organizations reach the L2 over the mesh and leave the bus idle."
    };
    format!(
        "The texture caches reach the L2 over {channels} of {} bits ({occupancy}), {} \
         cycle(s) of arbitration before each transfer; a request holds it one beat, a block's \
         reply {} beats. Utilisation: busy cycles over the frame's cycles (per channel).{mesh}",
        t.bus_width_bits,
        t.bus_arbitration_cycles,
        crate::bus::reply_beats(r.config.block_bytes, t.bus_width_bits),
    )
}

/// DRAM behind the L2, in words.
fn dram_words(r: &NucaReport) -> String {
    let t = &r.config.timing;
    let latency = format!(
        "Every L2 miss takes DRAM's {} cycles (timing.dram_cycles; ours: the middle of \
             Table I's 50-100)",
        t.dram_cycles
    );
    match t.dram_banks() {
        None => format!(
            "{latency}, whatever the other misses do: the DRAM's banks and buses are not \
             modelled (--dram-banks off), so no miss waits and no row is counted."
        ),
        Some(d) => format!(
            "{latency}, and waits besides for its bank and its channel's bus (--dram-banks on): \
             {}'s rules in cycles of the GPU's {} MHz, tRCD {}, tRP {}, tCAS {}, {} cycles a \
             64-byte line; an open row is the last read's of its bank in the order the machine \
             serves them. A read alone waits 0. {}",
            d.dram.name(),
            t.clock_mhz,
            d.t_rcd,
            d.t_rp,
            d.t_cas,
            d.line_cycles,
            if t.dram_writes {
                "The L2's write-backs of dirty victims take the banks and buses too (--dram-writes \
                 on), each when the miss that evicted it reaches DRAM, after its read, served as a \
                 read is; those of untimed other traffic (the binning pass's, or all of it \
                 untimed) take no time."
            } else {
                "The L2's write-backs of dirty victims take no time (--dram-writes off, ours)."
            }
        ),
    }
}

/// What time the frame's other L2 traffic took, in words.
fn other_traffic_words(r: &NucaReport) -> String {
    let t = &r.config.timing;
    if r.frame.other_accesses == 0 {
        return "The frame has no other L2 traffic (no trace was given with its texture \
                requests), so the L2 sees the texture caches' requests alone."
            .into();
    }
    let what = "The frame's other L2 accesses (every stream but the texture caches', from the \
                trace) change the L2's contents in trace order";
    match t.other_traffic {
        OtherTraffic::Untimed => format!(
            "{what} and take no time (timing.other_traffic untimed, ours, as the paper's \
             texture-only model): they hold no L2 bank, DRAM bank or bus, and no texture request \
             waits for them."
        ),
        OtherTraffic::Tiles => format!(
            "{what}. A tile's own (the Tile Fetcher's reads, the tile buffers' loads and flush) \
             leave a port of the other units' own a block every {} cycle(s) \
             (timing.other_port_cycles), no earlier than the tile's latest texture issue so far \
             (the tile's start before its first), and take their L2 bank's cycle and, with \
             --dram-banks on, a read miss's DRAM bank and bus (timing.other_traffic tiles). The \
             binning pass runs before its tiles and takes no time. No processor waits for this \
             traffic, but a tile starts no earlier than the port has sent the traffic of the tile \
             {} before it, whose buffer it takes (timing.tile_buffers; 0: never). Port waits are \
             cycles from that earliest cycle to the send.",
            t.other_port_cycles, t.tile_buffers
        ),
    }
}

/// Each organization's GPU energy by part, in words: the tables hold the
/// GPU's, memory's and total energy, not the parts.
fn energy_parts(r: &NucaReport) -> Vec<String> {
    let uj = |nj: f64| format!("{:.2}", nj / 1000.0);
    r.organizations
        .iter()
        .map(|row| {
            let e = &row.result.energy;
            format!(
                "{}'s GPU energy: texture caches {}, tables {}, network {}, L2 {}, static {} µJ.",
                row.organization.name(),
                uj(e.texture_caches_nj),
                uj(e.tables_nj),
                uj(e.network_nj),
                uj(e.l2_nj),
                uj(e.static_nj),
            )
        })
        .collect()
}

/// One scene's page.
pub fn page(r: &NucaReport) -> Page {
    let orgs = View::of("organizations").column("organization", "organization", Format::Plain);
    let count = |v: View, column: &str, heading: &str| v.column(column, heading, Format::Thousands);
    let mut sections = vec![Section::new("Figures 6, 8, 9, 10: against private caches")
        .view(figures_view(View::of("organizations")))
        .note(FIGURES_NOTE)
        .figures(&["fig6_l2_accesses.svg", "fig8_hits.svg", "fig9_speedup.svg"])];
    sections.extend(announced(r));
    sections.push(replication(r));
    sections.push(capacity(r));
    sections.push(
        Section::new("Figure 11: by number of fragment processors")
            .view(scaling_view())
            .figures(&["fig11_scaling.svg"]),
    );
    let mut counts = orgs.clone();
    for (column, heading) in [
        ("texture_accesses", "texture accesses"),
        ("local_hits", "local hits"),
        ("remote_hits", "remote hits"),
        ("l2_hits", "L2 hits"),
        ("l2_misses", "L2 misses"),
        ("l2_all_accesses", "L2 accesses (all)"),
        ("cycles", "cycles"),
        ("mesh_flit_hops", "mesh flit-hops"),
        ("broadcasts", "broadcasts"),
        ("epochs", "epochs"),
        ("ownership_changes", "ownership changes"),
    ] {
        counts = count(counts, column, heading);
    }
    sections.push(Section::new("Counts on the main frame").view(counts));
    let bus = count(orgs.clone(), "bus_transfers", "transfers");
    let bus = count(bus, "bus_busy_cycles", "busy cycles")
        .with(share("bus_utilisation_percent", "utilisation"));
    let bus = count(bus, "bus_queue_cycles", "queueing cycles").column(
        "bus_mean_wait_cycles",
        "mean wait (cycles)",
        Format::Fixed2,
    );
    let bus = count(bus, "bus_max_wait_cycles", "largest wait (cycles)");
    sections.push(
        Section::new("The bus to the L2 (ours)")
            .view(bus)
            .note(bus_words(r)),
    );
    let dram = count(orgs.clone(), "dram_bank_reads", "reads at the banks");
    let dram = count(dram, "dram_writes", "write-backs at the banks");
    let dram = count(dram, "dram_write_wait_cycles", "their waiting cycles");
    let dram = count(dram, "dram_row_conflicts", "row conflicts");
    let dram = count(dram, "dram_wait_cycles", "waiting cycles").column(
        "dram_mean_wait_cycles",
        "mean wait (cycles)",
        Format::Fixed2,
    );
    sections.push(
        Section::new("DRAM behind the L2")
            .view(dram)
            .note(dram_words(r)),
    );
    let other = count(orgs.clone(), "other_timed", "timed accesses");
    let other = count(
        other,
        "other_port_wait_cycles",
        "cycles waiting for the port",
    );
    let other = count(other, "other_bank_wait_cycles", "cycles waiting for a bank");
    let other = count(other, "dram_other_reads", "DRAM reads");
    let other = count(other, "dram_other_wait_cycles", "cycles the reads waited");
    let other = count(
        other,
        "tile_buffer_wait_cycles",
        "cycles tiles waited for a buffer",
    );
    sections.push(
        Section::new("The frame's other L2 traffic in time (ours)")
            .view(other)
            .note(other_traffic_words(r)),
    );
    let uj = Format::Scaled {
        divisor: 1000,
        decimals: 2,
    };
    let mut energy = Section::new("Energy by part (µJ, our model)").view(
        orgs.clone()
            .column("energy_gpu_nj", "GPU", uj)
            .column("energy_memory_nj", "memory", uj)
            .column("energy_total_nj", "total", uj),
    );
    energy.notes = energy_parts(r);
    sections.push(energy.figures(&["fig10_energy.svg"]));
    sections.push(
        Section::new("Sweeps (ours): one knob at a time")
            .view(main_columns(
                View::of("sweeps")
                    .column("knob", "knob", Format::Plain)
                    .with(Column::new("value", "value", Format::Plain).mark("main", "{} (main)"))
                    .column("organization", "organization", Format::Plain),
            ))
            .figures(&["sweep_*"]),
    );
    sections.push(
        Section::new("Quad assignments (ours)")
            .view(main_columns(
                View::of("assignments")
                    .except("organization", OrgKind::Private.name())
                    .column("assignment", "assignment", Format::Plain)
                    .column("organization", "organization", Format::Plain),
            ))
            .figures(&["assignments.svg"]),
    );
    if let Some(m) = &r.machine {
        sections.push(m.section());
    }
    sections.push(
        Section::new("The model configuration")
            .lead(
                "Every parameter of the main runs: the machine's, the paper's Table I where it \
                 gives one, the rest ours.",
            )
            .code(pretty_json(&r.config)),
    );
    if !r.seconds.is_empty() {
        sections.push(
            Section::new("Wall-clock seconds per phase")
                .note(format!("{}.", seconds_words(&r.seconds))),
        );
    }
    let what = r.scene.as_deref().unwrap_or(&r.requests);
    Page {
        title: format!(
            "DTM-NUCA study: {what}, {} fragment processors",
            r.frame.fps
        ),
        intro: setup(r),
        picture: Some(Picture {
            file: "frame.png".into(),
            caption: format!(
                "{what}, as rendered tile by tile for the main runs ({} fragment processors, \
                 {} quad assignment).",
                r.frame.fps, r.frame.assignment
            ),
        }),
        sections,
    }
}

/// The page of a suite of `scenes` (name, report), over its tables: the
/// mean first, beside the paper's, each figure after the table it plots,
/// then each scene (the writer adds the section linking each scene's own
/// page with its frame).
pub fn suite_page(scenes: &[(&str, &NucaReport)]) -> Page {
    let names: Vec<&str> = scenes.iter().map(|(n, _)| *n).collect();
    let intro = vec![format!(
        "The DTM-NUCA study on each scene of the suite ({}). The mean is the arithmetic mean \
         of the scenes' figures, as the paper averages its games, so each scene weighs the \
         same. The paper's numbers are shown in grey italics.",
        names.join(", ")
    )];
    let scene = || Column::new("scene", "scene", Format::Plain).link("{}/index.html", &["mean"]);
    let paper_replicated = scenes.first().map(|(_, r)| r.paper.replicated_percent);
    let mut sections =
        vec![
            Section::new("Mean over the scenes: Figures 6, 8, 9, 10 against private caches")
                .view(figures_view(
                    View::of("organizations").rows("scene", "mean"),
                ))
                .note(FIGURES_NOTE)
                .figures(&[
                    "fig6_l2_accesses.svg",
                    "fig8_hits.svg",
                    "fig9_speedup.svg",
                    "fig10_energy.svg",
                ]),
        ];
    // A scene's share in more than one cache is on each of its rows: the
    // first (one cache) stands for the scene.
    let mut replication = Section::new("Figure 1: texture accesses to replicated blocks").view(
        View::of("replication")
            .rows("caches", "1")
            .with(scene())
            .column("fragment_processors", "private caches", Format::Plain)
            .with(share("replicated_percent", "in more than one")),
    );
    if let Some(p) = paper_replicated {
        replication = replication.note(format!("The paper's, with 4 caches: {p:.1}%."));
    }
    sections.push(replication.figures(&["fig1_replication.svg"]));
    sections.push(
        Section::new("Figure 7: private L2 requests by size against the main size")
            .view(
                View::of("capacity")
                    .except("l2_change_percent", "")
                    .with(scene())
                    .column("tc_bytes", "texture cache", Format::Size)
                    .with(signed(
                        "l2_change_percent",
                        "L2 requests against the main size",
                    )),
            )
            .figures(&["fig7_capacity.svg"]),
    );
    sections.push(
        Section::new("Figure 11: mean by number of fragment processors")
            .view(scaling_view().rows("scene", "mean"))
            .figures(&["fig11_scaling.svg"]),
    );
    sections.push(
        Section::new("Scenes: each organization against private caches").view(main_columns(
            View::of("organizations")
                .except("scene", "mean")
                .except("organization", OrgKind::Private.name())
                .with(scene())
                .column("organization", "organization", Format::Plain),
        )),
    );
    sections.push(seconds_per_scene(
        scenes.iter().map(|(n, r)| (*n, &r.seconds)),
    ));
    Page {
        title: format!("DTM-NUCA study: a suite of {} scenes", scenes.len()),
        intro,
        picture: None,
        sections,
    }
}

/// Figure 11's table: speedup, L2 texture requests and local hits by
/// number of fragment processors, the paper's speedup beside.
fn scaling_view() -> View {
    View::of("scaling")
        .except("organization", OrgKind::Private.name())
        .column("fragment_processors", "fragment processors", Format::Plain)
        .column("organization", "organization", Format::Plain)
        .with(signed(SPEEDUP.column, "speedup"))
        .with(paper_signed(SPEEDUP))
        .with(signed(L2_TEXTURE.column, "L2 texture requests"))
        .with(share(LOCAL_HITS.column, "local hits"))
}
