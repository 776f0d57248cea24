//! What the NBTC's three buffers cost in storage. The slides give each
//! entry's fields (slides 11-13: the Retry Buffer's valid bit, screen
//! coordinate, texture request, ready bit and filtered data; the Waiting
//! List Buffer's valid bit, texture ID, filtering information and eight
//! texel addresses, data and ready bits; the Block Address Buffer's
//! missing block addresses) but no widths and no hardware cost. The
//! widths are ours, each a field of [`FieldBits`], so that a sweep of the
//! buffers' sizes can be read against what they cost.
//!
//! Not counted: the FIFOs' head and tail pointers (a few bits a buffer)
//! and the comparators that look the RB and the BAB up.

use serde::{Deserialize, Serialize};

use crate::config::{NbtcConfig, MAX_TEXELS};

/// The width of each kind of field the buffers hold (all ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FieldBits {
    /// A texel's address, and the request's texture address (32).
    pub address: u32,
    /// A texel's data and the filtered result (32: RGBA8).
    pub texel: u32,
    /// One screen coordinate, x or y (16).
    pub coordinate: u32,
    /// The filtering information: the filter mode (2 bits: nearest,
    /// bilinear, trilinear) and the blend weights, the u, v and LOD
    /// fractions at the 8 bits our sampler keeps (26).
    pub filter_info: u32,
}

impl Default for FieldBits {
    fn default() -> FieldBits {
        FieldBits {
            address: 32,
            texel: 32,
            coordinate: 16,
            filter_info: 2 + 3 * 8,
        }
    }
}

impl FieldBits {
    /// `Err` naming the first field out of its range.
    pub fn check(&self) -> Result<(), (&'static str, u32, &'static str)> {
        let ranges = [
            ("field_bits.address", self.address, 1, 64, "1 to 64 bits"),
            ("field_bits.texel", self.texel, 1, 128, "1 to 128 bits"),
            (
                "field_bits.coordinate",
                self.coordinate,
                1,
                32,
                "1 to 32 bits",
            ),
            (
                "field_bits.filter_info",
                self.filter_info,
                0,
                64,
                "0 to 64 bits",
            ),
        ];
        for (field, bits, lo, hi, expected) in ranges {
            if !(lo..=hi).contains(&bits) {
                return Err((field, bits, expected));
            }
        }
        Ok(())
    }
}

/// One field of an entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub name: String,
    pub bits: u32,
}

/// One buffer: its entries and what each holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferStorage {
    pub entries: u32,
    pub fields: Vec<Field>,
    /// The fields' bits summed.
    pub entry_bits: u32,
    /// `entries` x `entry_bits`.
    pub bits: u64,
}

impl BufferStorage {
    fn new(entries: u32, fields: &[(&str, u32)]) -> BufferStorage {
        let entry_bits = fields.iter().map(|&(_, b)| b).sum::<u32>();
        BufferStorage {
            entries,
            fields: fields
                .iter()
                .map(|&(name, bits)| Field {
                    name: name.to_string(),
                    bits,
                })
                .collect(),
            entry_bits,
            bits: u64::from(entries) * u64::from(entry_bits),
        }
    }
}

/// The NBTC's buffers for one configuration, beside its L1's data array.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Storage {
    pub rb: BufferStorage,
    pub wlb: BufferStorage,
    pub bab: BufferStorage,
    /// The three buffers, bytes (bits / 8, rounded up).
    pub bytes: u64,
    /// The L1's data array, bytes (its tags not counted).
    pub l1_data_bytes: u64,
    /// `bytes` over `l1_data_bytes`, percent.
    pub share_of_l1: f64,
}

/// Bits that tell `n` things apart (0 for one).
fn index_bits(n: u32) -> u32 {
    n.max(1).next_power_of_two().trailing_zeros()
}

impl Storage {
    /// The buffers of `config`, with its [`NbtcConfig::field_bits`]. The
    /// WLB's texture ID names the request's RB entry (ours); the BAB holds
    /// block addresses (the address less the block offset) and, when a
    /// miss may join a sent entry ([`NbtcConfig::bab_merges_sent`]), a
    /// sent bit.
    pub fn of(config: &NbtcConfig) -> Storage {
        let b = &config.field_bits;
        let texels = MAX_TEXELS as u32;
        let rb = BufferStorage::new(
            config.rb_entries,
            &[
                ("valid", 1),
                ("screen coordinate", 2 * b.coordinate),
                ("filtering information", b.filter_info),
                ("texture address", b.address),
                ("ready", 1),
                ("filtered texture data", b.texel),
            ],
        );
        let wlb = BufferStorage::new(
            config.wlb_entries,
            &[
                ("valid", 1),
                ("texture ID", index_bits(config.rb_entries)),
                ("filtering information", b.filter_info),
                ("texel addresses", texels * b.address),
                ("texel data", texels * b.texel),
                ("ready bits", texels),
            ],
        );
        let offset = config.block_bytes.max(1).trailing_zeros();
        let mut bab_fields = vec![("block address", b.address.saturating_sub(offset))];
        if config.bab_merges_sent {
            bab_fields.push(("sent", 1));
        }
        let bab = BufferStorage::new(config.bab_entries, &bab_fields);
        let bytes = (rb.bits + wlb.bits + bab.bits).div_ceil(8);
        Storage {
            rb,
            wlb,
            bab,
            bytes,
            l1_data_bytes: config.l1_bytes,
            share_of_l1: if config.l1_bytes == 0 {
                0.0
            } else {
                bytes as f64 / config.l1_bytes as f64 * 100.0
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slides_buffers_with_our_widths() {
        let s = Storage::of(&NbtcConfig::default());
        // RB: 1 + 2 x 16 + 26 + 32 + 1 + 32; WLB: 1 + 5 (32 RB entries)
        // + 26 + 8 x 32 + 8 x 32 + 8; BAB: 32 - 5 (32 B blocks) + 1.
        assert_eq!(
            (s.rb.entry_bits, s.wlb.entry_bits, s.bab.entry_bits),
            (124, 552, 28)
        );
        assert_eq!((s.rb.bits, s.wlb.bits, s.bab.bits), (3968, 17664, 896));
        assert_eq!(s.bytes, 496 + 2208 + 112);
        assert!((s.share_of_l1 - 2816.0 / 32768.0 * 100.0).abs() < 1e-9);
        for b in [&s.rb, &s.wlb, &s.bab] {
            assert_eq!(b.entry_bits, b.fields.iter().map(|f| f.bits).sum::<u32>());
        }
    }

    #[test]
    fn each_knob_moves_its_own_fields() {
        let base = NbtcConfig::default();
        let s = |c: NbtcConfig| Storage::of(&c);
        let rb16 = s(NbtcConfig {
            rb_entries: 16,
            ..base
        });
        assert_eq!((rb16.rb.bits, rb16.wlb.entry_bits), (16 * 124, 551));
        let blocks = s(NbtcConfig {
            block_bytes: 128,
            bab_merges_sent: false,
            ..base
        });
        assert_eq!(blocks.bab.entry_bits, 25);
        assert_eq!(blocks.bab.fields.len(), 1);
        let wide = s(NbtcConfig {
            field_bits: FieldBits {
                texel: 64,
                ..FieldBits::default()
            },
            ..base
        });
        assert_eq!(wide.wlb.entry_bits, 552 + 8 * 32);
        assert_eq!(wide.rb.entry_bits, 124 + 32);
        assert_eq!(index_bits(1), 0);
        assert_eq!(index_bits(33), 6);
    }
}
