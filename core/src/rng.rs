//! A small deterministic generator (xorshift), so that a seed always gives the same layout,
//! sample or choice: the authority passes the seed and replays stay exact.

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A uniform-enough index below `n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index drawn with probability proportional to its weight; `None` when every weight
    /// is zero (or the list is empty).
    pub(crate) fn weighted(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = self.unit() * total;
        let mut last = None;
        for (i, &w) in weights.iter().enumerate() {
            if w <= 0.0 {
                continue;
            }
            last = Some(i);
            if x < w {
                return Some(i);
            }
            x -= w;
        }
        last
    }

    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_draws_follow_the_weights_and_skip_zeros() {
        let mut rng = Rng::new(3);
        let mut counts = [0usize; 3];
        for _ in 0..3000 {
            if let Some(i) = rng.weighted(&[1.0, 0.0, 3.0]) {
                counts[i] += 1;
            }
        }
        assert_eq!(counts[1], 0);
        assert!((600..900).contains(&counts[0]), "{counts:?}");
        assert_eq!(rng.weighted(&[0.0, 0.0]), None);
    }
}
