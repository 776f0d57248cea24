//! The named machines (`presets/*.toml`, embedded) and how a machine is
//! found: a preset's name, else a TOML file of the same form.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::machine::Machine;
use crate::MachineError;

/// A named machine: its name and its file's text.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub text: &'static str,
}

const PRESETS: [Preset; 5] = [
    Preset {
        name: "dtm-nuca",
        text: include_str!("../presets/dtm-nuca.toml"),
    },
    Preset {
        name: "tcor",
        text: include_str!("../presets/tcor.toml"),
    },
    Preset {
        name: "nbtc",
        text: include_str!("../presets/nbtc.toml"),
    },
    Preset {
        name: "gspc",
        text: include_str!("../presets/gspc.toml"),
    },
    Preset {
        name: "mali-g78",
        text: include_str!("../presets/mali-g78.toml"),
    },
];

/// The named machines, in order: each paper's, then a present-day one.
pub fn presets() -> &'static [Preset] {
    &PRESETS
}

/// Largest machine file read: a machine is a page of TOML.
const MAX_FILE_BYTES: u64 = 1 << 20;

impl Machine {
    /// A machine from `text`, read from `file` (named in errors, with the
    /// line and column of what is wrong), checked.
    pub fn parse(text: &str, file: &Path) -> Result<Machine, MachineError> {
        let m: Machine = toml::from_str(text).map_err(|e| MachineError::Read {
            file: file.to_path_buf(),
            message: e.to_string().trim_end().replace('\n', " "),
        })?;
        m.check(file)?;
        Ok(m)
    }

    /// The machine in the TOML file at `path`.
    pub fn read(path: &Path) -> Result<Machine, MachineError> {
        let fail = |message: String| MachineError::Read {
            file: path.to_path_buf(),
            message,
        };
        // Looked at before it is opened: opening a pipe waits for a
        // writer, and a device's reading might never end.
        let open = |source| MachineError::Open {
            file: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(open)?;
        if !meta.is_file() {
            return Err(fail(
                "not a regular file (a device, pipe, socket or directory): expected a machine file"
                    .into(),
            ));
        }
        let f = std::fs::File::open(path).map_err(open)?;
        let mut text = String::new();
        f.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| fail(format!("not a text file: {e}")))?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(fail(format!(
                "larger than {MAX_FILE_BYTES} bytes: expected a machine file of a page or so"
            )));
        }
        Machine::parse(&text, path)
    }

    /// The preset called `name`, if there is one.
    pub fn preset(name: &str) -> Option<Machine> {
        let p = PRESETS.iter().find(|p| p.name == name)?;
        let file = PathBuf::from(format!("presets/{}.toml", p.name));
        Some(Machine::parse(p.text, &file).expect("the presets are valid (tested)"))
    }

    /// A preset by name, else the machine in the file `name`.
    pub fn resolve(name: &str) -> Result<Machine, MachineError> {
        if let Some(m) = Machine::preset(name) {
            return Ok(m);
        }
        let path = Path::new(name);
        if path.exists() || name.ends_with(".toml") || name.contains('/') {
            return Machine::read(path);
        }
        Err(MachineError::Unknown {
            name: name.to_string(),
            known: PRESETS.map(|p| p.name).join(", "),
        })
    }
}
