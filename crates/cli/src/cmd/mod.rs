//! One module per subcommand.

pub mod binned;
pub mod compose;
pub mod gspc;
pub mod machine_flags;
pub mod machines;
pub mod mrc;
pub mod nbtc;
pub mod nuca;
pub mod policies;
pub mod programs;
pub mod render;
pub mod reproduce;
pub mod scenes;
pub mod shaders;
pub mod sim;
pub mod sweep;
pub mod tcor;
pub mod trace;

use std::path::Path;

use anyhow::{Context, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use gfxcache_render::scene::builtin::Suite;
use gfxcache_trace::{CsvColumns, ReadOptions, TraceRead};

/// Opens a trace, any format, a `.csv` one through `columns` if given.
/// (The error names the file: a `TraceError` always does.)
pub fn open_trace(path: &Path, columns: Option<&CsvColumns>) -> Result<Box<dyn TraceRead>> {
    let options = ReadOptions {
        csv_columns: columns.cloned(),
    };
    gfxcache_trace::open_with(path, &options).context("cannot read trace")
}

/// What `--fps` prints on stderr: the flag's former name, given up because
/// "fps" also means frames per second (the `gspc` report's column).
pub const FPS_DEPRECATED: &str = "--fps is deprecated; use --fragment-processors";

/// `--fragment-processors N` of the commands that render tile-based
/// frames (`render`, `tcor`, `nuca`), and `--fps`, its hidden former name.
/// Each command gives the flag a help of its own, naming its default
/// (`#[command(mut_arg("fragment_processors", ...))]`).
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct FragmentProcessorsArg {
    /// Fragment processors, each with its own texture cache.
    #[arg(long, value_name = "N")]
    pub fragment_processors: Option<u16>,
    /// --fragment-processors' former name, deprecated: it warns.
    #[arg(
        long = "fps",
        value_name = "N",
        hide = true,
        conflicts_with = "fragment_processors"
    )]
    pub fps: Option<u16>,
}

impl FragmentProcessorsArg {
    /// The fragment processors given, by either name (the two conflict,
    /// so one at most), and the flag given, so that an error names what
    /// was typed.
    pub fn given(&self) -> (Option<u16>, &'static str) {
        match self.fps {
            Some(n) => (Some(n), "--fps"),
            None => (self.fragment_processors, "--fragment-processors"),
        }
    }

    /// Whether the deprecated name was used ([`FPS_DEPRECATED`]).
    pub fn deprecated(&self) -> bool {
        self.fps.is_some()
    }
}

/// `--csv-columns`, the flag of every command that reads a trace file.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CsvColumnsArg {
    /// A .csv trace from elsewhere: which of its columns hold ours, as
    /// OURS=THEIRS pairs (`addr=obj_id,size=obj_size,op=type`). Its other
    /// columns are ignored; without `op` every access is a read, without
    /// `stream` every access is `other`.
    #[arg(long, value_name = "MAP", value_parser = |s: &str| s.parse::<CsvColumns>())]
    pub csv_columns: Option<CsvColumns>,
}

/// The largest settings file (`--config`, `--unit`, `--energy`) read: a
/// JSON object of a model's fields is a few KiB.
pub const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// The text of the settings file `path` that `flag` names: a regular file
/// (a device such as `/dev/zero` or a pipe, whose reading might never end,
/// is refused before it is opened) of at most [`MAX_SETTINGS_BYTES`].
pub fn read_settings(flag: &str, path: &Path) -> Result<String> {
    use std::io::Read;
    let cannot = || format!("{flag}: cannot read {}", path.display());
    let meta = std::fs::metadata(path).with_context(cannot)?;
    if !meta.is_file() {
        anyhow::bail!(
            "{flag}: {}: not a regular file (a device, pipe, socket or directory): expected a JSON file",
            path.display()
        );
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SETTINGS_BYTES + 1).read_to_string(&mut text))
        .with_context(cannot)?;
    if text.len() as u64 > MAX_SETTINGS_BYTES {
        anyhow::bail!(
            "{flag}: {}: larger than {MAX_SETTINGS_BYTES} bytes: expected a JSON file of a model's settings",
            path.display()
        );
    }
    Ok(text)
}

/// `base` with the fields of the JSON object in the settings file `path`
/// that `flag` names ([`read_settings`]) put over its own: a model's
/// settings given in part. `what` says what the file should hold;
/// `refused` names fields the file may not set, each with why.
pub fn merge_settings<T: serde::Serialize + serde::de::DeserializeOwned>(
    flag: &str,
    path: &Path,
    base: &T,
    what: &str,
    refused: &[(&str, &str)],
) -> Result<T> {
    let text = read_settings(flag, path)?;
    let expected = || format!("{}: expected a JSON object of {what}", path.display());
    let value: serde_json::Value = serde_json::from_str(&text).with_context(expected)?;
    let serde_json::Value::Object(fields) = value else {
        anyhow::bail!(expected());
    };
    for (field, why) in refused {
        if fields.contains_key(*field) {
            anyhow::bail!("{}: \"{field}\" {why}", path.display());
        }
    }
    let mut merged = serde_json::to_value(base).expect("a config serializes");
    for (k, v) in fields {
        match merged.get_mut(&k) {
            Some(have) => overlay(have, v),
            None => merged[k] = v,
        }
    }
    serde_json::from_value(merged).with_context(expected)
}

/// Puts `given` over `value`: an object whose every field `value` has too
/// is put field by field, so that `{"timing": {"sync_tiles": false}}`
/// keeps the other timing fields `value` had (the machine's, not the
/// type's defaults); any other value replaces `value`'s, as does an object
/// naming a field `value` lacks (another variant of a choice, such as
/// `{"shared-dram": ...}` over `"private"`, or a field the type refuses).
fn overlay(value: &mut serde_json::Value, given: serde_json::Value) {
    match (value, given) {
        (serde_json::Value::Object(have), serde_json::Value::Object(given))
            if given.keys().all(|k| have.contains_key(k)) =>
        {
            for (k, v) in given {
                overlay(have.get_mut(&k).expect("checked above"), v);
            }
        }
        (value, given) => *value = given,
    }
}

/// `--warmup` against the `--frames` a study renders: refused unless it
/// leaves a frame to count.
pub fn check_warmup(warmup: u32, frames: u32) -> Result<()> {
    if warmup >= frames {
        anyhow::bail!(
            "--warmup {warmup} with --frames {frames}: expected fewer warm-up frames than \
             frames, so that one is left to count"
        );
    }
    Ok(())
}

/// Prints `value` as one JSON document on stdout.
pub fn print_json(value: &impl serde::Serialize) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context("cannot serialise the result")?;
    println!("{text}");
    Ok(())
}

/// `--suite`: one of the suites' names, an unknown one refused with the
/// list of those known.
pub fn suite_parser() -> impl TypedValueParser<Value = Suite> {
    PossibleValuesParser::new(Suite::ALL.map(Suite::name)).try_map(|name| name.parse::<Suite>())
}

/// The study shell's view of `suite`: its scenes in the registry's
/// order, and the class of frames the study's paper measured (`paper`).
pub fn suite_of(suite: Suite, paper: &str) -> crate::report::suite::SuiteRun<'_> {
    crate::report::suite::SuiteRun {
        name: suite.name(),
        scenes: suite.scenes().map(|b| b.name).collect(),
        paper,
    }
}

#[cfg(test)]
mod tests {
    use super::overlay;
    use serde_json::json;

    #[test]
    fn a_nested_object_is_put_over_field_by_field_and_a_choice_is_replaced() {
        let mut v = json!({"timing": {"contexts": 96, "sync_tiles": true}, "memory": "private"});
        overlay(&mut v, json!({"timing": {"sync_tiles": false}}));
        assert_eq!(
            v,
            json!({"timing": {"contexts": 96, "sync_tiles": false}, "memory": "private"})
        );
        let shared = json!({"shared-dram": {"clock_mhz": 500, "dram": "a"}});
        overlay(&mut v, json!({ "memory": shared }));
        assert_eq!(v["memory"], shared);
        overlay(&mut v, json!({"memory": {"shared-dram": {"dram": "x"}}}));
        assert_eq!(
            v["memory"],
            json!({"shared-dram": {"clock_mhz": 500, "dram": "x"}})
        );
        overlay(&mut v, json!({"memory": {"other": {}}}));
        assert_eq!(v["memory"], json!({"other": {}}));
        overlay(&mut v, json!({"timing": {"contexts": 1, "nope": 2}}));
        assert_eq!(v["timing"], json!({"contexts": 1, "nope": 2}));
    }
}
