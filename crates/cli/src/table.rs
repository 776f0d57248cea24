//! Plain-text tables for terminal output: columns right-aligned except the first.

pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// Columns of text, aligned left like the first.
    left: Vec<usize>,
}

impl Table {
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Table {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
            left: vec![0],
        }
    }

    /// Aligns column `col` left (for text rather than numbers).
    pub fn left(mut self, col: usize) -> Table {
        self.left.push(col);
        self
    }

    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    pub fn render(&self) -> String {
        let cols = self.header.len();
        let mut width = vec![0; cols];
        for r in std::iter::once(&self.header).chain(&self.rows) {
            for (i, c) in r.iter().enumerate().take(cols) {
                width[i] = width[i].max(c.chars().count());
            }
        }
        let mut out = String::new();
        for r in std::iter::once(&self.header).chain(&self.rows) {
            let mut line = String::new();
            for (i, c) in r.iter().enumerate().take(cols) {
                let sep = if i == 0 { "" } else { "  " };
                if self.left.contains(&i) {
                    line.push_str(&format!("{sep}{c:<w$}", w = width[i]));
                } else {
                    line.push_str(&format!("{sep}{c:>w$}", w = width[i]));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

pub use gfxcache_report::page::thousands;

/// A ratio as a percentage with two decimals.
pub fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

/// A byte count for people: `21385024` -> `20.4 MiB`.
pub fn human_bytes(n: u64) -> String {
    let units = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (u, m) in units {
        if n >= m {
            return format!("{:.1} {u}", n as f64 / m as f64);
        }
    }
    format!("{n} B")
}
