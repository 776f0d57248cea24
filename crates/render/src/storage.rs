//! Host-side storage of screen-sized tables (render targets' pixels, HiZ
//! bounds, the picture), allocated without aborting: a screen too large
//! for the memory there is becomes an error that names the table
//! ([`crate::frame::FrameError::OutOfMemory`]), never an abort in the
//! allocator.

/// A table the memory there is cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// Its size in bytes.
    pub bytes: u64,
}

/// `vec![value; n]`, or [`TooLarge`] when the memory is not there.
pub fn filled<T: Clone>(n: usize, value: T) -> Result<Vec<T>, TooLarge> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| TooLarge {
        bytes: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
    })?;
    v.resize(n, value);
    Ok(v)
}

/// Whether `bytes` could be allocated now. The memory is released at once,
/// so this promises nothing for later; under an address-space limit it
/// turns a frame that cannot hold its largest working buffer into an
/// error before any work rather than an abort half-way.
pub fn room_for(bytes: u64) -> Result<(), TooLarge> {
    let fail = TooLarge { bytes };
    let n = usize::try_from(bytes).map_err(|_| fail)?;
    Vec::<u8>::new().try_reserve_exact(n).map_err(|_| fail)
}

/// `bytes` for people: KiB, MiB or GiB with one decimal.
pub fn human(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        0..=1023 => format!("{bytes} B"),
        1024..=1_048_575 => format!("{:.1} KiB", b / 1024.0),
        1_048_576..=1_073_741_823 => format!("{:.1} MiB", b / 1_048_576.0),
        _ => format!("{:.1} GiB", b / 1_073_741_824.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_that_fit_are_filled_and_others_refused() {
        assert_eq!(filled(3, 7u16).unwrap(), [7, 7, 7]);
        // More than the address space: refused without asking the system.
        assert_eq!(
            filled(1usize << 60, 0u64).unwrap_err(),
            TooLarge { bytes: 1 << 63 }
        );
        let huge = filled(usize::MAX / 2, 0u32).unwrap_err();
        assert_eq!(huge.bytes, u64::MAX, "saturates");
        assert!(room_for(1 << 20).is_ok());
        assert_eq!(room_for(u64::MAX).unwrap_err().bytes, u64::MAX);
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(1536), "1.5 KiB");
        assert_eq!(human(2 << 30), "2.0 GiB");
    }
}
