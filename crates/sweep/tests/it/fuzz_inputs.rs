//! The `sweep_toml` fuzz target's entry point
//! (fuzz/fuzz_targets/sweep_toml.rs) on stable, over its seeds
//! (fuzz/seeds/sweep_toml, examples/sweeps) and malformed sweep files
//! made from them: random bytes, every truncation, deterministic
//! mutations, huge axis counts and deep nesting. Any text is a checked
//! experiment whose jobs are counted as they are made, or an error naming
//! the file, never a panic, and nothing grows with the counts the text
//! names.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use gfxcache_sweep::exp::MAX_FRAME_POINTS;
use gfxcache_sweep::{Experiment, SweepError};

const FILE: &str = "/nonexistent-fuzz-dir/exp.toml";

/// What the fuzz target does with one input: `Ok` with the experiment's
/// job count, or the error (which names the file).
fn target(data: &[u8]) -> Result<u64, SweepError> {
    let text = String::from_utf8_lossy(data);
    match Experiment::parse(&text, Path::new(FILE)) {
        Ok(e) => {
            assert!(e.frame_count() as u64 <= MAX_FRAME_POINTS);
            let n = e.job_count();
            if n <= 4096 {
                let jobs = e.jobs();
                assert_eq!(jobs.len() as u64, n);
                for j in jobs.iter().take(8) {
                    let _ = (j.key(), j.slug());
                }
            }
            Ok(n)
        }
        Err(e) => {
            let file = match &e {
                SweepError::Toml { file, .. }
                | SweepError::Value { file, .. }
                | SweepError::Input { file, .. } => file,
            };
            assert_eq!(file, Path::new(FILE), "{e}");
            assert!(e.to_string().starts_with(FILE), "{e}");
            Err(e)
        }
    }
}

fn seeds() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for dir in ["fuzz/seeds/sweep_toml", "examples/sweeps"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let bytes = std::fs::read(&path).unwrap();
                out.push((path, bytes));
            }
        }
    }
    assert!(out.len() >= 4, "{} seeds", out.len());
    out
}

/// xorshift64*: deterministic inputs, the same on every run.
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
/// or range, axis flags, unknown studies and keys, broken tables.
const TOKENS: &[&str] = &[
    "studies = []\n",
    "studies = [\"nbtc\", \"tcor\"]\n",
    "modes = [\"tbr\"]\n",
    "modes = [\"xyz\"]\n",
    "frames = [0]\n",
    "frames = [65]\n",
    "warmup = [64]\n",
    "resolutions = [\"0x0\"]\n",
    "resolutions = [\"16384x16384\", \"15x15\"]\n",
    "sizes = [\"3KiB\"]\n",
    "sizes = [\"16EiB\"]\n",
    "ways = [0]\n",
    "blocks = [3]\n",
    "banks = [4294967295]\n",
    "index = [\"xor\"]\n",
    "policies = [\"gspc:t=0\"]\n",
    "policies = [\"nope\"]\n",
    "[flags.render]\nscene = \"city\"\n",
    "[flags.nuca]\nepoch = 0\n",
    "[flags.unknown]\n",
    "[flags.gspc]\nx = {}\n",
    "scenes = [\"../../etc/passwd.obj\"]\n",
    "suites = [\"desktop\"]\n",
    "[frames]\n",
    "[cache]\n",
    "= 1\n",
    "[[",
    "{",
    "\"",
    "\n",
];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut s = seed.to_vec();
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
    s
}

#[test]
fn the_seeds_are_valid_sweeps_but_the_one_made_to_be_refused() {
    for (path, bytes) in seeds() {
        let refused = path.file_stem().is_some_and(|s| s == "refused");
        match target(&bytes) {
            Ok(n) => assert!(!refused && n > 0, "{}: {n} jobs", path.display()),
            Err(e) => assert!(refused, "{}: {e}", path.display()),
        }
    }
}

#[test]
fn random_bytes_are_refused() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let len = rng.below(600);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        assert!(target(&bytes).is_err(), "{bytes:?}");
    }
}

#[test]
fn every_truncation_of_a_seed_is_an_error_or_a_sweep() {
    let (mut accepted, mut refused) = (0, 0);
    for (_, bytes) in seeds() {
        for cut in 0..bytes.len() {
            match target(&bytes[..cut]) {
                Ok(_) => accepted += 1,
                Err(_) => refused += 1,
            }
        }
    }
    // A cut at a line's end can leave a whole sweep; most cuts do not.
    assert!(
        refused > 4 * accepted,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn mutated_seeds_never_panic() {
    let seeds = seeds();
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..4000 {
        let (_, seed) = &seeds[rng.below(seeds.len())];
        match target(&mutate(&mut rng, seed)) {
            Ok(_) => accepted += 1,
            Err(_) => refused += 1,
        }
    }
    // The mutations reach both sides of the checks.
    assert!(
        accepted > 0 && refused > 0,
        "{accepted} accepted, {refused} refused"
    );
}

/// Axes whose product is astronomical, and nesting deep enough to
/// overflow a recursive parser's stack: refused quickly.
#[test]
fn huge_axis_counts_and_deep_nesting_are_refused_quickly() {
    let list = |n: usize, f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(",");
    let cases = [
        // 5 000 x 64 x 65 x 2 frame points.
        format!(
            "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nmodes = [\"imr\", \"tbr\"]\n\
             resolutions = [{}]\nframes = [{}]\nwarmup = [{}]\n",
            list(5000, &|i| format!("\"{}x{}\"", 16 + i / 100, 16 + i % 100)),
            list(64, &|i| (i + 1).to_string()),
            list(65, &|i| i.to_string()),
        ),
        // 2 000 sizes x 64 ways x 8 blocks x 8 banks x 2 indexes.
        format!(
            "studies = [\"sim\"]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"city\"]\n\
             [cache]\nsizes = [{}]\nways = [{}]\nblocks = [{}]\nbanks = [{}]\nindex = [\"modulo\", \"xor\"]\n",
            list(2000, &|i| format!("\"{}KiB\"", i + 1)),
            list(64, &|i| (i + 1).to_string()),
            list(8, &|i| (16u32 << i).to_string()),
            list(8, &|i| (1u32 << i).to_string()),
        ),
        // Each value past the last that fits a u32 or a count.
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nframes = [18446744073709551616]\n"
            .to_string(),
        format!("studies = [\"mrc\"]\nx = {}", "[".repeat(100_000)),
        format!("studies = [\"mrc\"]\nx = {}", "{a=".repeat(50_000)),
        format!("studies = [{}]\n", "\"mrc\",".repeat(100_000)),
    ];
    for text in &cases {
        let start = Instant::now();
        let e = target(text.as_bytes()).expect_err("refused");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?} for {e}",
            start.elapsed()
        );
    }
}
