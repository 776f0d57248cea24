//! Set dueling (Qureshi et al. ISCA'07, as DRRIP uses it in Jaleel et al.
//! ISCA'10): a few *leader* sets always run one of two competing policies,
//! a saturating counter (PSEL) counts which leaders miss more, and every
//! other (*follower*) set runs the policy that is winning.
//!
//! [`SetDuel`] says which sets lead; [`Psel`] is the counter. DRRIP uses one
//! of each; the thread-aware GS-DRRIP keeps one [`Psel`] per stream.

/// What a set does in a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Role {
    /// Runs whichever policy the counter currently favours.
    Follower = 0,
    /// Always runs policy A (SRRIP in DRRIP); its misses count against A.
    LeaderA = 1,
    /// Always runs policy B (BRRIP in DRRIP); its misses count against B.
    LeaderB = 2,
}

/// The role of set `set` of `sets` when each policy gets `leaders` leader
/// sets. With `L = min(leaders, sets / 2)` and `R = sets / L`, the sets
/// `s` with `s / R < L` lead: policy A when `s % R == 0`, policy B when
/// `s % R == R / 2`. Fewer than two sets (or `leaders == 0`): no leaders.
pub fn leader_role(set: u32, sets: u32, leaders: u32) -> Role {
    let l = leaders.min(sets / 2);
    if l == 0 {
        return Role::Follower;
    }
    let r = sets / l; // >= 2, so R / 2 >= 1 and the two leaders differ
    if set / r >= l {
        Role::Follower
    } else if set.is_multiple_of(r) {
        Role::LeaderA
    } else if set % r == r / 2 {
        Role::LeaderB
    } else {
        Role::Follower
    }
}

/// Leader sets per policy and follower sets when each policy asks for
/// `leaders` leaders among `sets` ([`leader_role`]): `L = min(leaders,
/// sets / 2)` leaders per policy and `sets - 2L` followers. No leaders
/// with fewer than two sets; no followers when `sets` is `2L` (every set
/// with `sets <= 2 * leaders`, but for the last of an odd count).
pub fn shape(sets: u32, leaders: u32) -> (u32, u32) {
    let l = leaders.min(sets / 2);
    (l, sets - 2 * l)
}

/// The role of every set, computed once ([`leader_role`]), so that the
/// access loop does no division.
#[derive(Clone, Debug)]
pub struct SetDuel {
    roles: Vec<Role>,
    leaders: u32,
}

impl SetDuel {
    /// Panics where the roles do not fit in memory: for small fixed caches;
    /// a cache sized by a user takes [`SetDuel::try_new`].
    pub fn new(sets: u32, leaders: u32) -> SetDuel {
        SetDuel::try_new(sets, leaders).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`SetDuel::new`], or an error where the roles do not fit in memory.
    pub fn try_new(sets: u32, leaders: u32) -> Result<SetDuel, crate::CacheError> {
        Ok(SetDuel {
            roles: crate::table::collect(
                (0..sets).map(|s| leader_role(s, sets, leaders)),
                "the set dueling roles",
            )?,
            leaders: shape(sets, leaders).0,
        })
    }

    #[inline(always)]
    pub fn role(&self, set: usize) -> Role {
        self.roles[set]
    }

    /// The role of every set, by set.
    pub(crate) fn roles(&self) -> &[Role] {
        &self.roles
    }

    /// Leader sets per policy actually used (`min(leaders, sets / 2)`).
    pub fn leaders_per_policy(&self) -> u32 {
        self.leaders
    }
}

/// A `width`-bit saturating policy-selection counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Psel {
    value: u32,
    max: u32,
    msb: u32,
}

impl Psel {
    /// `width` from 1 to 31; starts at `2^(width-1) - 1`, just below the
    /// midpoint, so policy A (MSB clear) is the first choice.
    pub fn new(width: u32) -> Psel {
        assert!(
            (1..=31).contains(&width),
            "PSEL width {width} out of 1..=31"
        );
        let msb = 1u32 << (width - 1);
        Psel {
            value: msb - 1,
            max: (1u32 << width) - 1,
            msb,
        }
    }

    /// A miss in a leader of policy A: towards B. Saturates at `2^width - 1`.
    #[inline(always)]
    pub fn inc(&mut self) {
        if self.value < self.max {
            self.value += 1;
        }
    }

    /// A miss in a leader of policy B: towards A. Saturates at 0.
    #[inline(always)]
    pub fn dec(&mut self) {
        self.value = self.value.saturating_sub(1);
    }

    /// Whether a fill in a set of `role` runs policy B, training the counter
    /// on the way: a fill in a leader of A counts against A ([`Psel::inc`]),
    /// in a leader of B against B ([`Psel::dec`]); a follower asks the
    /// counter ([`Psel::favours_b`]).
    #[inline(always)]
    pub fn choose(&mut self, role: Role) -> bool {
        match role {
            Role::Follower => self.favours_b(),
            Role::LeaderA => {
                self.inc();
                false
            }
            Role::LeaderB => {
                self.dec();
                true
            }
        }
    }

    /// Whether followers run policy B (the counter's MSB is set).
    #[inline(always)]
    pub fn favours_b(&self) -> bool {
        self.value & self.msb != 0
    }

    pub fn value(&self) -> u32 {
        self.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaders_spread_over_the_sets() {
        // 64 sets, 4 leaders each: R = 16, A at 0,16,32,48 and B at 8,24,40,56.
        let d = SetDuel::new(64, 4);
        let a: Vec<usize> = (0..64).filter(|&s| d.role(s) == Role::LeaderA).collect();
        let b: Vec<usize> = (0..64).filter(|&s| d.role(s) == Role::LeaderB).collect();
        assert_eq!(a, [0, 16, 32, 48]);
        assert_eq!(b, [8, 24, 40, 56]);
        // More leaders than sets / 2: every set leads, alternately.
        let d = SetDuel::new(6, 32);
        let roles: Vec<Role> = (0..6).map(|s| d.role(s)).collect();
        use Role::*;
        assert_eq!(
            roles,
            [LeaderA, LeaderB, LeaderA, LeaderB, LeaderA, LeaderB]
        );
        // Non-power-of-two: 10 sets, 3 leaders, R = 3: sets 9 is past L * R.
        let roles: Vec<Role> = (0..10).map(|s| leader_role(s, 10, 3)).collect();
        assert_eq!(
            roles,
            [
                LeaderA, LeaderB, Follower, LeaderA, LeaderB, Follower, LeaderA, LeaderB, Follower,
                Follower
            ]
        );
        assert_eq!(leader_role(0, 1, 32), Follower);
    }

    #[test]
    fn shape_counts_the_roles() {
        for sets in [1, 2, 3, 5, 6, 10, 63, 64, 65, 100, 1024] {
            for leaders in [1, 3, 32] {
                let roles: Vec<Role> = (0..sets).map(|s| leader_role(s, sets, leaders)).collect();
                let count = |r| roles.iter().filter(|&&x| x == r).count() as u32;
                let (l, followers) = shape(sets, leaders);
                assert_eq!(count(Role::LeaderA), l, "{sets} sets, {leaders} leaders");
                assert_eq!(count(Role::LeaderB), l, "{sets} sets, {leaders} leaders");
                assert_eq!(count(Role::Follower), followers);
            }
        }
    }

    #[test]
    fn psel_saturates() {
        let mut p = Psel::new(3);
        assert_eq!(p.value(), 3);
        assert!(!p.favours_b());
        p.inc();
        assert!(p.favours_b());
        for _ in 0..10 {
            p.inc();
        }
        assert_eq!(p.value(), 7);
        for _ in 0..10 {
            p.dec();
        }
        assert_eq!(p.value(), 0);
    }
}
