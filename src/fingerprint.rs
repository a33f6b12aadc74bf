//! `fingerprint`: FNV-1a, 128 bits, of a text (a puzzle's canonical form, a run's settings), used
//! by the settings and the store alike.

/// The 128-bit FNV-1a hash of `bytes`: a stable fingerprint (the same on every platform and
/// build). For 10^9 distinct puzzles the chance of any two sharing one is below 10^-20.
pub fn fingerprint(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ b as u128).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_is_fnv_1a_128() {
        // Published FNV-1a 128 test vectors.
        assert_eq!(fingerprint(b""), 0x6c62272e07bb014262b821756295c58d);
        assert_eq!(fingerprint(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
        assert_ne!(fingerprint(b"9|b3x3|ab"), fingerprint(b"9|b3x3|ba"));
    }
}
