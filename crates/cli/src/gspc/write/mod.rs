//! The files of a GSPC study: `gspc.json`, CSV tables, SVG plots, `index.html`.
