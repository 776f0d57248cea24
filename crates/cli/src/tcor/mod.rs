//! The TCOR study (Joseph, Aragón, Parcerisa and González) on one frame
//! rendered tile by tile: Attribute Cache miss-ratio curves with the lower
//! bound (Section V-A), and the baseline Tiling Engine, TCOR without and
//! with its L2 enhancements through the shared L2 to main memory, with
//! energy and Tile Fetcher throughput (Section V-B).
//!
//! [`study`] runs it and fills a [`report::TcorReport`]; [`write`] turns
//! that into `tcor.json`, CSV files, SVG plots and `index.html`; [`paper`]
//! holds the published figures shown beside ours.

pub mod paper;
pub mod report;
pub mod study;
pub mod write;
