//! A sweep's time left, from the times its jobs took.
//!
//! Jobs of one sweep differ by orders of magnitude: a `sim` job on a small
//! frame takes a fraction of a second, a study on a large one minutes. A
//! time left from the mean job so far says "about 0s left" after a run of
//! quick jobs and then waits for the slow ones. So each job's wall time is
//! kept under its class: its study (`sim`, `mrc`, `gspc`, ...) and its
//! frame's pixels. The time left is the sum, over the jobs not started,
//! of the mean time of their class, plus what the running ones are likely
//! still to take (their class's mean less the time they have run, at
//! least zero), divided by the jobs that run side by side. A class not
//! measured yet takes its study's mean per pixel times its pixels, or,
//! with no job of its study measured, the mean of every job so far.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use gfxcache_sweep::Job;

/// A job's class: its study's name and its frame's pixels.
type Class = (&'static str, u64);

fn class(job: &Job) -> Class {
    (
        job.kind.study().name(),
        u64::from(job.frame.width) * u64::from(job.frame.height),
    )
}

#[derive(Default)]
struct State {
    /// Jobs not started yet, by class.
    waiting: HashMap<Class, u64>,
    /// Jobs running: their class and start.
    running: HashMap<String, (Class, Instant)>,
    /// Seconds taken and jobs ended, by class.
    ended: HashMap<Class, (f64, u64)>,
}

/// The jobs of a sweep run: which wait, which run, what those ended took.
pub struct Pace {
    side_by_side: usize,
    state: Mutex<State>,
}

impl Pace {
    /// A pace for `pending` jobs run `side_by_side` at once.
    pub fn new(pending: &[&Job], side_by_side: usize) -> Pace {
        let mut state = State::default();
        for job in pending {
            *state.waiting.entry(class(job)).or_default() += 1;
        }
        Pace {
            side_by_side: side_by_side.max(1),
            state: Mutex::new(state),
        }
    }

    /// `job` starts now.
    pub fn start(&self, job: &Job) {
        if let Ok(mut s) = self.state.lock() {
            let c = class(job);
            if let Some(n) = s.waiting.get_mut(&c) {
                *n = n.saturating_sub(1);
            }
            s.running.insert(job.slug(), (c, Instant::now()));
        }
    }

    /// `job` ended (whether it succeeded or failed).
    pub fn end(&self, job: &Job) {
        if let Ok(mut s) = self.state.lock() {
            if let Some((c, t0)) = s.running.remove(&job.slug()) {
                let e = s.ended.entry(c).or_default();
                e.0 += t0.elapsed().as_secs_f64();
                e.1 += 1;
            }
        }
    }

    /// The time left, once a job has ended (none before: nothing to go by).
    pub fn left(&self) -> Option<Duration> {
        let s = self.state.lock().ok()?;
        let seconds = estimate(
            &s.waiting,
            s.running
                .values()
                .map(|(c, t)| (*c, t.elapsed().as_secs_f64())),
            &s.ended,
        )?;
        Some(Duration::from_secs_f64(seconds / self.side_by_side as f64))
    }
}

/// Seconds of work left: the waiting jobs' expected times and what the
/// running ones (class, seconds run) are expected still to take.
fn estimate(
    waiting: &HashMap<Class, u64>,
    running: impl Iterator<Item = (Class, f64)>,
    ended: &HashMap<Class, (f64, u64)>,
) -> Option<f64> {
    let (all_seconds, all_jobs) = ended
        .values()
        .fold((0.0, 0u64), |(s, n), (es, en)| (s + es, n + en));
    if all_jobs == 0 {
        return None;
    }
    let overall = all_seconds / all_jobs as f64;
    let expected = |c: Class| -> f64 {
        if let Some((s, n)) = ended.get(&c) {
            return s / *n as f64;
        }
        // The study's seconds per pixel, over its classes measured.
        let (s, px) = ended
            .iter()
            .filter(|((study, _), _)| *study == c.0)
            .fold((0.0, 0.0), |(s, px), ((_, p), (es, en))| {
                (s + es, px + (*p as f64) * (*en as f64))
            });
        if px > 0.0 {
            s / px * c.1 as f64
        } else {
            overall
        }
    };
    let waiting: f64 = waiting.iter().map(|(c, n)| expected(*c) * *n as f64).sum();
    let running: f64 = running.map(|(c, run)| (expected(c) - run).max(0.0)).sum();
    Some(waiting + running)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_ended_gives_no_time_left() {
        let waiting = HashMap::from([(("sim", 100), 3)]);
        assert_eq!(
            estimate(&waiting, std::iter::empty(), &HashMap::new()),
            None
        );
    }

    #[test]
    fn each_class_takes_its_own_mean() {
        // Quick sims ended; a slow study measured once; one of each waits.
        let ended = HashMap::from([(("sim", 100), (2.0, 4)), (("gspc", 100), (60.0, 1))]);
        let waiting = HashMap::from([(("sim", 100), 1), (("gspc", 100), 1)]);
        assert_eq!(
            estimate(&waiting, std::iter::empty(), &ended),
            Some(0.5 + 60.0)
        );
    }

    #[test]
    fn a_class_not_measured_scales_its_studys_time_per_pixel() {
        let ended = HashMap::from([(("gspc", 100), (10.0, 1)), (("sim", 100), (1.0, 1))]);
        let waiting = HashMap::from([(("gspc", 400), 2), (("mrc", 100), 1)]);
        // gspc at 4x the pixels: 40 s each; mrc, never measured: the mean
        // of every job, (10 + 1) / 2.
        assert_eq!(
            estimate(&waiting, std::iter::empty(), &ended),
            Some(80.0 + 5.5)
        );
    }

    #[test]
    fn a_running_job_counts_what_it_has_left_and_never_less_than_nothing() {
        let ended = HashMap::from([(("gspc", 100), (10.0, 1))]);
        let running = [(("gspc", 100), 4.0), (("gspc", 100), 15.0)];
        assert_eq!(
            estimate(&HashMap::new(), running.into_iter(), &ended),
            Some(6.0)
        );
    }
}
