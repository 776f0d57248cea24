//! A value with the source it comes from ([`Sourced`]): the paper's
//! table, a hardware document, or our choice. In a preset file a value is
//! an inline table `{ value = ..., source = "paper: ..." }`; a value
//! without its source, or a source of another kind, is refused.

use serde::{Deserialize, Serialize};

/// Where a value comes from: the first word of its source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// Stated by the paper the machine is (its table or text).
    Paper,
    /// A hardware document or the literature, where the paper is silent.
    Hardware,
    /// Our choice, a knob: never chosen to move a result toward a paper's.
    Ours,
}

impl SourceKind {
    pub const ALL: [SourceKind; 3] = [SourceKind::Paper, SourceKind::Hardware, SourceKind::Ours];

    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Paper => "paper",
            SourceKind::Hardware => "hardware",
            SourceKind::Ours => "ours",
        }
    }

    /// The kind a source names (`paper: ...`, `hardware: ...`,
    /// `ours: ...`), if it names one and says more than that.
    pub fn of(source: &str) -> Option<SourceKind> {
        let (kind, rest) = source.split_once(':')?;
        if rest.trim().is_empty() {
            return None;
        }
        SourceKind::ALL
            .into_iter()
            .find(|k| k.name() == kind.trim())
    }
}

/// A value and its source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sourced<T> {
    pub value: T,
    /// `paper: ...`, `hardware: ...` or `ours: ...`, saying which table,
    /// document or reason.
    pub source: String,
}

impl<T> Sourced<T> {
    pub fn new(value: T, source: impl Into<String>) -> Sourced<T> {
        Sourced {
            value,
            source: source.into(),
        }
    }

    /// The kind of its source, if it names one.
    pub fn kind(&self) -> Option<SourceKind> {
        SourceKind::of(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_name_their_kind_and_say_more() {
        assert_eq!(SourceKind::of("paper: Table I"), Some(SourceKind::Paper));
        assert_eq!(
            SourceKind::of("hardware: Arm Mali-400 guide"),
            Some(SourceKind::Hardware)
        );
        assert_eq!(SourceKind::of("ours: the middle"), Some(SourceKind::Ours));
        for bad in ["Table I", "paper:", "paper:   ", "guess: it", ""] {
            assert_eq!(SourceKind::of(bad), None, "{bad:?}");
        }
    }
}
