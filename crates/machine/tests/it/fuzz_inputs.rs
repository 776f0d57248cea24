//! The `machine_toml` fuzz target's entry point
//! (fuzz/fuzz_targets/machine_toml.rs) on stable, over the presets and
//! thousands of deterministic mutations of them: any text is a checked
//! machine whose issue model and values can be taken, or an error naming
//! the file — never a panic.

use std::path::Path;

use gfxcache_machine::{presets, Machine, MachineError};

/// xorshift64*: deterministic mutations, the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces that steer mutations into the checks: values of the wrong kind
/// or range, sources of no kind, unknown keys, broken tables.
const TOKENS: &[&str] = &[
    "value = 0",
    "value = -1",
    "value = 1e308",
    "value = nan",
    "value = inf",
    "value = 4294967296",
    "value = \"0KiB\"",
    "value = \"3KiB\"",
    "value = \"lpddr9\"",
    "value = []",
    "value = [0, 0]",
    "value = [100, 50]",
    "source = \"\"",
    "source = \"paper:\"",
    "source = \"guess: x\"",
    "[fragment.issue]\n",
    "[unknown]\n",
    "extra = 1\n",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "=",
    "\n",
];

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut s = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len() + 1);
        match rng.below(4) {
            0 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                s.splice(at..at, t.iter().copied());
            }
            1 if at < s.len() => {
                let end = (at + 1 + rng.below(40)).min(s.len());
                s.drain(at..end);
            }
            2 if at < s.len() => s[at] = rng.next() as u8,
            _ => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                let end = (at + t.len()).min(s.len());
                s.splice(at..end, t.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

/// What the fuzz target does with one input.
fn read(text: &str) -> Result<(), MachineError> {
    let m = Machine::parse(text, Path::new("fuzz.toml"))?;
    let _ = m.issue_model();
    assert!(!m.values().is_empty());
    Ok(())
}

#[test]
fn machine_files_never_panic() {
    let seeds: Vec<&str> = presets().iter().map(|p| p.text).collect();
    for s in &seeds {
        read(s).expect("a preset reads");
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..3000 {
        let seed = seeds[rng.below(seeds.len())];
        let text = mutate(&mut rng, seed);
        match read(&text) {
            Ok(()) => accepted += 1,
            Err(e) => {
                assert!(e.to_string().starts_with("fuzz.toml"), "{e}");
                refused += 1;
            }
        }
    }
    // The mutations reach both sides of the checks.
    assert!(
        accepted > 0 && refused > 0,
        "{accepted} accepted, {refused} refused"
    );
}
