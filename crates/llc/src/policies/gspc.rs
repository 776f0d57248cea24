//! GSPC, graphics stream-aware probabilistic caching (GSPC paper, Section
//! 3, Table 5): GSPZTC+TSE ([`super::gspztc_tse`], whose [`Epochs`] this
//! is, with `GSPC = true`) plus a learned protection of render targets.
//!
//! "We associate two new eight-bit saturating counters PROD and CONS with
//! each LLC bank. The PROD counter is incremented when a render target
//! block is filled into an LLC sample set. The CONS counter is incremented
//! when a texture sampler access to an LLC sample set hits a block in the
//! state 11." They are halved with the FILL and HIT counters when ACC(ALL)
//! saturates ([`crate::counters`]).
//!
//! | event | sample sets | non-sample sets |
//! |---|---|---|
//! | RT fill | state 11, RRPV 2, PROD++ | state 11; RRPV 3 if PROD > rt-hi.CONS, else 2 if PROD > rt-lo.CONS, else 0 |
//! | RT hit (blending) | state 11, RRPV 0 | state 11, RRPV 0 |
//! | RT -> TEX hit | state 00, RRPV 0, FILL(0)++, CONS++ | state 00, RRPV as Table 4 |
//!
//! Everything else is GSPZTC+TSE's. The render-target class includes the
//! `display` stream (displayable colour; see [`crate::class`]); `+ucd`
//! keeps it out of the LLC instead.
//!
//! Parameters: `t` (1 to 1024, default 8), `counter-bits` (1 to 16, default
//! 8), `acc-bits` (1 to 16, default 7), `rt-hi` (1 to 1024, default 16: the
//! paper's 16), `rt-lo` (1 to 1024, default 8: the paper's 8). With `rt-lo`
//! >= `rt-hi` the RRPV-2 band is empty.

pub use super::gspztc_tse::{Epochs, State};

/// GSPC.
pub type Gspc = Epochs<true>;
