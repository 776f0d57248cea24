//! The shader work of a draw: the ALU instructions its fragment shader
//! runs per pixel around its texture requests, which the texture request
//! record (`.gtq`, [`super::Pipeline::set_texture_requests`]) puts between requests. The
//! counts per program are `frame`'s (`Program::fragment_work`); a draw
//! carries its own ([`super::Draw::work`]), and a draw of no program
//! (tests, tools) carries [`ShaderWork::NONE`].

/// ALU work of a fragment shader around its texture requests, per
/// fragment (pixel), from [`Program::fragment_work`](crate::frame::shaders::Program::fragment_work).
///
/// A fragment makes the leading requests in order, then (programs with a
/// tap loop) one request per tap of its pass; `segments` lists the ALU
/// instructions before each request and, last, after the last one. Where a
/// fragment skips an optional request (an untextured material, a material
/// that does not reflect), the work before it still runs and counts
/// toward the next request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentWork {
    /// ALU instructions before each leading request, in request order.
    pub lead: &'static [u32],
    /// After the leading requests, before the first tap's own work (only
    /// with a tap loop; without one this is part of `tail`).
    pub between: u32,
    /// The tap loop: one request per tap of the pass (the `taps` of its
    /// [`crate::graph::Op`]).
    pub taps: Option<TapWork>,
    /// ALU instructions after the last request.
    pub tail: u32,
}

/// The ALU work of one tap of a loop: before its request (its
/// coordinates) and after it (what the loop does with the texel).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TapWork {
    pub before: u32,
    pub after: u32,
}

impl FragmentWork {
    /// Texture requests a fragment makes on the program's full path, with
    /// `taps` taps (ignored without a loop).
    pub fn requests(&self, taps: u32) -> u32 {
        self.lead.len() as u32 + self.taps.map_or(0, |_| taps)
    }

    /// ALU instructions before each request, then after the last
    /// (`requests(taps) + 1` numbers).
    pub fn segments(&self, taps: u32) -> Vec<u32> {
        let mut s: Vec<u32> = self.lead.to_vec();
        let mut carry = 0;
        if let Some(t) = self.taps {
            carry = self.between;
            for _ in 0..taps {
                s.push(carry + t.before);
                carry = t.after;
            }
        }
        s.push(carry + self.tail);
        s
    }

    /// ALU instructions of a fragment on the full path, with `taps` taps.
    pub fn instructions(&self, taps: u32) -> u32 {
        self.segments(taps).iter().sum()
    }
}

/// A draw's fragment work: its program's [`FragmentWork`] with the tap
/// count of its pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderWork {
    pub fragment: FragmentWork,
    pub taps: u32,
}

impl ShaderWork {
    /// No work around any request: draws of no program.
    pub const NONE: ShaderWork = ShaderWork {
        fragment: FragmentWork {
            lead: &[],
            between: 0,
            taps: None,
            tail: 0,
        },
        taps: 0,
    };

    /// Segments of a fragment: requests on the full path, plus one.
    pub fn segments(&self) -> u32 {
        self.fragment.requests(self.taps) + 1
    }

    /// ALU instructions of segment `k` ([`FragmentWork::segments`]'s `k`-th,
    /// 0 past the last), without building the list.
    #[inline]
    pub fn segment(&self, k: u32) -> u32 {
        let w = &self.fragment;
        let lead = w.lead.len() as u32;
        if k < lead {
            return w.lead[k as usize];
        }
        let j = k - lead;
        match w.taps {
            None => {
                if j == 0 {
                    w.tail
                } else {
                    0
                }
            }
            Some(t) => {
                let carry = if j == 0 { w.between } else { t.after };
                if j < self.taps {
                    carry + t.before
                } else if j == self.taps {
                    carry + w.tail
                } else {
                    0
                }
            }
        }
    }

    /// ALU instructions of a fragment on the full path.
    pub fn instructions(&self) -> u32 {
        self.fragment.instructions(self.taps)
    }
}
