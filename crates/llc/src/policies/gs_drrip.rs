//! GS-DRRIP, graphics stream-aware DRRIP (GSPC paper, Section 3): "we
//! derive a graphics stream-aware DRRIP (GS-DRRIP) policy from the
//! thread-aware DRRIP policy, which uses set-dueling to decide between the
//! insertion RRPVs of two and three for each of the four streams."
//!
//! Thread-aware dueling (TA-DIP, Jaleel et al. PACT'08, applied to DRRIP)
//! with the four stream classes of [`crate::class`] in place of threads:
//! each class has its own `psel`-bit counter ([`Psel`]) and its own leader
//! sets, `leaders` running SRRIP and `leaders` running BRRIP, disjoint from
//! every other class's leaders ([`leader_of`]). In a leader set of class
//! `c`, accesses of class `c` insert with that leader's fixed policy and a
//! fill there moves `c`'s counter (SRRIP leader: up; BRRIP leader: down;
//! saturating), exactly as DRRIP does; accesses of other classes in that
//! set follow their own counter. A follower fill of class `c` inserts as
//! BRRIP (`2^bits - 1`, except every `throttle`-th BRRIP insertion at
//! `2^bits - 2`) when `c`'s counter has its MSB set, as SRRIP
//! (`2^bits - 2`) otherwise. One throttle counter ([`Throttle`]) serves
//! every class and set, as in DRRIP. Hits: RRPV 0. Victim:
//! [`Rrpv::victim`]. Misses the engine does not allocate (`+ucd`) move no
//! counter.
//!
//! Too few sets for every class's duel are notes ([`gs_drrip_notes`]):
//! one set (fully associative) has no leaders and GS-DRRIP is exactly
//! SRRIP; below 8 sets some classes have no leaders (their PSEL never
//! moves: SRRIP insertion); below `8 * leaders` sets each class has fewer.
//!
//! Parameters: `bits` (1 to 8, default 2), `psel` (1 to 31, default 10),
//! `leaders` (per class and policy, 1 to 2^20, default 32), `throttle` (1
//! to 2^20, default 32).
//!
//! Report: `psel_z`, `psel_tex`, `psel_rt`, `psel_other` (final counters);
//! `fills_at_max` and per class `z_`/`tex_`/`rt_fills_at_max` (fractions of
//! fills at the maximum RRPV, the paper's Figure 8).

use gfxcache_cache::duel::{self, leader_role, Psel, Role};
use gfxcache_cache::policies::drrip::DrripParams;
use gfxcache_cache::rrip::{RripPolicy, Rrpv, Throttle};
use gfxcache_cache::table;
use gfxcache_cache::{CacheError, Ctx, Env, Geometry, Params};

use crate::class::{Class, FillMix};

/// The leader role of `set` of `sets` when each class gets `leaders`
/// leaders per policy, and the class it leads for; `None` for a follower.
///
/// The four classes' leaders are laid out as DRRIP's would be for
/// `4 * leaders` leaders per policy ([`leader_role`]: `L = min(4 * leaders,
/// sets / 2)`, `R = sets / L`, set `s` leads when `s / R < L`, for SRRIP
/// when `s % R == 0`, for BRRIP when `s % R == R / 2`), and leader pair
/// `k = s / R` belongs to class `k % 4` (Z, TEX, RT, other). With 1024 sets
/// and 32 leaders: sets 0 and 4 lead for Z, 8 and 12 for TEX, 16 and 20 for
/// RT, 24 and 28 for other, 32 and 36 for Z again, and so on. With fewer
/// than `8 * leaders` sets each class gets fewer leaders; with fewer than 8
/// sets some classes get none and their counter never moves (they run
/// SRRIP).
pub fn leader_of(set: u32, sets: u32, leaders: u32) -> Option<(Class, Role)> {
    let total = leaders.saturating_mul(4);
    match leader_role(set, sets, total) {
        Role::Follower => None,
        role => {
            let r = sets / total.min(sets / 2);
            Some((Class::ALL[(set / r % 4) as usize], role))
        }
    }
}

pub struct GsDrrip {
    rrpv: Rrpv,
    /// [`leader_of`] of every set, computed once.
    leads: Vec<Option<(Class, Role)>>,
    psel: [Psel; Class::COUNT],
    throttle: Throttle,
    mix: FillMix,
}

impl GsDrrip {
    /// The counter of `class`.
    pub fn psel(&self, class: Class) -> u32 {
        self.psel[class.index()].value()
    }

    /// The leader role of `set` ([`leader_of`]).
    pub fn leader(&self, set: usize) -> Option<(Class, Role)> {
        self.leads[set]
    }
}

/// Leader sets per policy of each class (in [`Class::ALL`] order) when
/// each asks for `leaders` among `sets` ([`leader_of`]): of the `L =
/// min(4 * leaders, sets / 2)` leader pairs, pair `k` is class `k % 4`'s.
pub fn leaders_per_class(sets: u32, leaders: u32) -> [u32; Class::COUNT] {
    let (pairs, _) = duel::shape(sets, leaders.saturating_mul(4));
    std::array::from_fn(|c| (pairs + 3 - c as u32) / 4)
}

/// What GS-DRRIP does on `sets` sets with `leaders` leaders per class and
/// policy, where some class has no duel ([`leaders_per_class`]).
pub fn gs_drrip_notes(sets: u32, leaders: u32) -> Vec<String> {
    if sets < 2 {
        return vec![
            "a single set (fully associative) has no leader sets: no PSEL moves and \
                     every fill inserts as SRRIP's, so this runs exactly as srrip"
                .to_string(),
        ];
    }
    let per = leaders_per_class(sets, leaders);
    let names = |pick: &dyn Fn(u32) -> bool| {
        Class::ALL
            .iter()
            .filter(|c| pick(per[c.index()]))
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut notes = Vec::new();
    if per.iter().any(|&n| n < leaders) {
        let counts: Vec<String> = Class::ALL
            .iter()
            .map(|c| format!("{} {}", c.name(), per[c.index()]))
            .collect();
        notes.push(format!(
            "{sets} sets have room for fewer leader sets per class and policy than the \
             {leaders} asked: {}",
            counts.join(", ")
        ));
    }
    let none = names(&|n| n == 0);
    if !none.is_empty() {
        notes.push(format!(
            "class(es) {none} have no leader sets: their PSEL never moves and their fills \
             always insert as SRRIP's"
        ));
    }
    // A class leads in every set: none follows its PSEL.
    let all = names(&|n| 2 * n == sets);
    if !all.is_empty() {
        notes.push(format!(
            "class(es) {all} lead in every set: no set follows their PSEL, so half the sets \
             always insert them as SRRIP, half as BRRIP"
        ));
    }
    notes
}

impl RripPolicy for GsDrrip {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<GsDrrip, CacheError> {
        let d = DrripParams::take(p)?;
        Ok(GsDrrip {
            rrpv: Rrpv::new(g.sets as usize, g.ways as usize, d.bits)?,
            leads: table::collect(
                (0..g.sets).map(|s| leader_of(s, g.sets, d.leaders)),
                "the leader roles",
            )?,
            psel: [Psel::new(d.psel); Class::COUNT],
            throttle: Throttle::new(d.throttle),
            mix: FillMix::default(),
        })
    }

    fn notes(p: &mut Params, g: &Geometry) -> Result<Vec<String>, CacheError> {
        Ok(gs_drrip_notes(g.sets, DrripParams::take(p)?.leaders))
    }

    #[inline]
    fn fill_rrpv(&mut self, ctx: &Ctx, _: usize) -> u8 {
        let class = Class::of(ctx.stream);
        let psel = &mut self.psel[class.index()];
        // Another class's leader set is a follower for this class.
        let role = match self.leads[ctx.set] {
            Some((c, role)) if c == class => role,
            _ => Role::Follower,
        };
        let bimodal = psel.choose(role);
        let max = self.rrpv.max();
        let v = self.throttle.dueling_insertion(bimodal, max);
        self.mix.count(class, v == max);
        v
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        let mut r = vec![
            ("psel_z", f64::from(self.psel(Class::Z))),
            ("psel_tex", f64::from(self.psel(Class::Tex))),
            ("psel_rt", f64::from(self.psel(Class::Rt))),
            ("psel_other", f64::from(self.psel(Class::Other))),
            ("fills_at_max", self.mix.total_ratio()),
        ];
        r.extend(self.mix.report());
        r
    }

    fn rrpvs(&self) -> &Rrpv {
        &self.rrpv
    }

    fn rrpvs_mut(&mut self) -> &mut Rrpv {
        &mut self.rrpv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaders_are_disjoint_and_balanced() {
        for (sets, leaders) in [(1024, 32), (2048, 32), (64, 4), (16, 32)] {
            let mut per = [[0u32; 2]; 4];
            for s in 0..sets {
                if let Some((c, role)) = leader_of(s, sets, leaders) {
                    per[c.index()][(role == Role::LeaderB) as usize] += 1;
                }
            }
            let want = leaders.min(sets / 8);
            for c in per {
                assert_eq!(c, [want, want], "{sets} sets, {leaders} leaders");
            }
        }
        assert_eq!(leader_of(0, 1024, 32), Some((Class::Z, Role::LeaderA)));
        assert_eq!(leader_of(4, 1024, 32), Some((Class::Z, Role::LeaderB)));
        assert_eq!(leader_of(8, 1024, 32), Some((Class::Tex, Role::LeaderA)));
        assert_eq!(leader_of(28, 1024, 32), Some((Class::Other, Role::LeaderB)));
        assert_eq!(leader_of(1, 1024, 32), None);
        assert_eq!(
            leader_of(1020, 1024, 32),
            Some((Class::Other, Role::LeaderB))
        );
        assert_eq!(leader_of(1021, 1024, 32), None);
        assert_eq!(leader_of(36, 2048, 32), None);
        assert_eq!(leader_of(0, 1, 32), None);
    }
}
