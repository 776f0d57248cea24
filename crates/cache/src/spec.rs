//! Policy specs as written on the command line: `name[+ucd][:key=value,...]`.

use std::fmt;
use std::str::FromStr;

use crate::error::CacheError;

/// A parsed policy spec, e.g. `gspztc+ucd:t=4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicySpec {
    pub name: String,
    /// `+ucd`: the `display` stream is not allocated.
    pub ucd: bool,
    pub params: Vec<(String, String)>,
}

impl FromStr for PolicySpec {
    type Err = CacheError;
    fn from_str(text: &str) -> Result<PolicySpec, CacheError> {
        let err = |what: String| CacheError::Policy {
            spec: text.to_string(),
            what,
        };
        let (head, tail) = match text.split_once(':') {
            Some((h, t)) => (h, Some(t)),
            None => (text, None),
        };
        let mut parts = head.split('+');
        let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        if name.is_empty() {
            return Err(err("expected a policy name before '+' or ':'".into()));
        }
        let mut ucd = false;
        for m in parts {
            match m.trim() {
                "ucd" => ucd = true,
                other => {
                    return Err(err(format!(
                        "unknown modifier '+{other}' (expected '+ucd')"
                    )))
                }
            }
        }
        let mut params = Vec::new();
        if let Some(tail) = tail {
            for item in tail.split(',') {
                let (k, v) = item
                    .split_once('=')
                    .ok_or_else(|| err(format!("parameter '{item}': expected key=value")))?;
                let (k, v) = (k.trim(), v.trim());
                if k.is_empty() || v.is_empty() {
                    return Err(err(format!("parameter '{item}': expected key=value")));
                }
                if params.iter().any(|(pk, _): &(String, String)| pk == k) {
                    return Err(err(format!("parameter '{k}' given twice")));
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(PolicySpec { name, ucd, params })
    }
}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if self.ucd {
            f.write_str("+ucd")?;
        }
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// One parameter a policy takes: what `gfxcache policies` lists.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ParamInfo {
    pub key: String,
    /// The value when the spec does not give one.
    pub default: String,
    /// The whole numbers accepted (none for a switch).
    pub min: Option<u64>,
    pub max: Option<u64>,
}

impl fmt::Display for ParamInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.default)?;
        match (self.min, self.max) {
            (Some(a), Some(b)) => write!(f, " ({a}-{b})"),
            _ => write!(f, " (true|false)"),
        }
    }
}

/// A policy's parameters while it is being built: each `take_*` call consumes
/// one key; [`Params::finish`] rejects whatever was not consumed.
pub struct Params {
    spec: String,
    items: Vec<(String, String, bool)>,
    /// Every parameter asked for, with its default and range, in order.
    asked: Vec<ParamInfo>,
}

impl Params {
    pub fn new(spec: &PolicySpec) -> Params {
        Params {
            spec: spec.to_string(),
            items: spec
                .params
                .iter()
                .map(|(k, v)| (k.clone(), v.clone(), false))
                .collect(),
            asked: Vec::new(),
        }
    }

    /// The parameters the policy asked for so far, with their defaults and
    /// ranges (each once).
    pub fn asked(&self) -> &[ParamInfo] {
        &self.asked
    }

    fn ask(&mut self, key: &str, default: String, range: Option<(u64, u64)>) {
        if !self.asked.iter().any(|a| a.key == key) {
            self.asked.push(ParamInfo {
                key: key.to_string(),
                default,
                min: range.map(|r| r.0),
                max: range.map(|r| r.1),
            });
        }
    }

    fn err(&self, what: String) -> CacheError {
        CacheError::Policy {
            spec: self.spec.clone(),
            what,
        }
    }

    fn take_raw(&mut self, key: &str) -> Option<String> {
        let item = self.items.iter_mut().find(|(k, _, _)| k == key)?;
        item.2 = true;
        Some(item.1.clone())
    }

    /// A whole number in `min..=max`, or `default` when absent.
    pub fn take_u64(
        &mut self,
        key: &str,
        default: u64,
        min: u64,
        max: u64,
    ) -> Result<u64, CacheError> {
        self.ask(key, default.to_string(), Some((min, max)));
        let Some(v) = self.take_raw(key) else {
            return Ok(default);
        };
        match v.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(self.err(format!(
                "{key}={v}: expected a whole number from {min} to {max}"
            ))),
        }
    }

    pub fn take_u32(
        &mut self,
        key: &str,
        default: u32,
        min: u32,
        max: u32,
    ) -> Result<u32, CacheError> {
        self.take_u64(key, default.into(), min.into(), max.into())
            .map(|n| n as u32)
    }

    pub fn take_bool(&mut self, key: &str, default: bool) -> Result<bool, CacheError> {
        self.ask(key, default.to_string(), None);
        let Some(v) = self.take_raw(key) else {
            return Ok(default);
        };
        match v.as_str() {
            "true" | "1" | "yes" | "on" => Ok(true),
            "false" | "0" | "no" | "off" => Ok(false),
            _ => Err(self.err(format!("{key}={v}: expected true or false"))),
        }
    }

    /// Fails on any parameter no `take_*` call asked for.
    pub fn finish(self) -> Result<(), CacheError> {
        let unknown: Vec<&str> = self
            .items
            .iter()
            .filter(|(_, _, used)| !used)
            .map(|(k, _, _)| k.as_str())
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(self.err(format!("unknown parameter(s): {}", unknown.join(", "))))
        }
    }
}

/// Splits lists of specs (`--policy` values) at commas, keeping a spec's `key=value`
/// parameters with it: a piece with `=` and no `:` continues the spec before.
pub fn split_list(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        let mut in_params = false;
        for piece in v.split(',') {
            let continues = in_params && piece.contains('=') && !piece.contains(':');
            match out.last_mut() {
                Some(last) if continues => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => {
                    in_params = piece.contains(':');
                    out.push(piece.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_list;

    #[test]
    fn parameters_after_a_comma_stay_with_their_spec() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            split_list(&v(&["lru,gspc:t=4,acc-bits=8,drrip", "opt:bypass=false"])),
            v(&["lru", "gspc:t=4,acc-bits=8", "drrip", "opt:bypass=false"])
        );
        // A `key=value` with no spec before it is left alone, to be reported.
        assert_eq!(split_list(&v(&["t=4,lru"])), v(&["t=4", "lru"]));
        assert_eq!(split_list(&v(&["lru,t=4"])), v(&["lru", "t=4"]));
    }
}
