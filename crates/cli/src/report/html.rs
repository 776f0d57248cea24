//! What the pages' writers share: [`esc`], through which every string
//! from a report goes (scene and policy names come from files and command
//! lines), and [`slug`], a section's or figure's id. The pages themselves
//! are laid out by one template ([`super::page`]).

/// An id from `title`: its letters and digits in lower case, each run of
/// anything else one `-`, at most about 60 characters, cut at a `-`.
pub fn slug(title: &str) -> String {
    let mut id = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    if id.len() > 60 {
        let cut = id[..60].rfind('-').unwrap_or(60);
        id.truncate(cut);
    }
    let id = id.trim_end_matches('-');
    if id.is_empty() {
        "section".to_string()
    } else {
        id.to_string()
    }
}

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What the studies' page tests check of a page.
#[cfg(test)]
pub mod check {
    /// The ids of the sections and figures of `page` that its table of
    /// contents does not link to.
    pub fn unlinked(page: &str) -> Vec<String> {
        let nav_end = page.find("</nav>").unwrap_or(0);
        let (nav, body) = page.split_at(nav_end);
        let mut missing = Vec::new();
        for mark in ["<h2 id=\"", "<figure id=\""] {
            for (at, _) in body.match_indices(mark) {
                let rest = &body[at + mark.len()..];
                let id = &rest[..rest.find('"').unwrap_or(0)];
                if !nav.contains(&format!("href=\"#{id}\"")) {
                    missing.push(id.to_string());
                }
            }
        }
        missing
    }

    /// Whether the figure of `file` comes after the (last) heading that
    /// starts with `title` with no other heading between: right after its
    /// table.
    pub fn follows(page: &str, title: &str, file: &str) -> bool {
        let body = &page[page.find("</nav>").unwrap_or(0)..];
        let (Some(table), Some(figure)) = (
            body.rfind(&format!("\">{title}")),
            body.find(&format!("<img src=\"{file}\"")),
        ) else {
            return false;
        };
        table < figure && !body[table..figure].contains("<h2")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            esc("a<b&c \"d\" 'e'"),
            "a&lt;b&amp;c &quot;d&quot; &#39;e&#39;"
        );
    }

    #[test]
    fn slugs_are_short_lower_case_words() {
        assert_eq!(
            slug("LLC misses (Figures 12 & 14)"),
            "llc-misses-figures-12-14"
        );
        assert_eq!(slug("é?"), "section");
        let long = slug(&"word ".repeat(30));
        assert!(long.len() <= 60 && !long.ends_with('-'), "{long}");
    }
}
