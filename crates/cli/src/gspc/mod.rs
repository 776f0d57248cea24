//! The GSPC study (Gaur et al. MICRO'13) on one rendered frame: every policy
//! of the paper at two LLC sizes, the reuse analyses of its Section 2, frame
//! rates from `gfxcache-mem`, and the report files.
//!
//! [`study`] runs it and fills a [`report::GspcReport`]; [`write`] turns
//! that into `gspc.json`, CSV files, SVG plots and `index.html`; [`paper`]
//! holds the published averages shown beside ours.

pub mod paper;
pub mod report;
pub mod runs;
pub mod study;
pub mod write;
