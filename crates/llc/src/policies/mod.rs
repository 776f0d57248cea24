//! One policy per file.

pub mod gs_drrip;
pub mod gspc;
pub mod gspztc;
pub mod gspztc_tse;
