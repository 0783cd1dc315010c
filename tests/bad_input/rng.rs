//! The deterministic generator of `bad_input.rs`: xorshift64* with a bias
//! towards the numbers that break code (zero, one, powers of two and their
//! neighbours, type maxima, NaN and infinities).

use warp9::state::Rect;

/// xorshift64*: deterministic, no dependencies.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }

    /// A u32 biased to edges: 0, 1, powers of two and their neighbours, maxima.
    pub fn u32(&mut self) -> u32 {
        match self.below(6) {
            0 => [0, 1, 2, 3, 4, 7, 8, 15, 16][self.below(9) as usize],
            1 => {
                let p = 1u32 << self.below(32);
                p.wrapping_add(self.below(3) as u32).wrapping_sub(1)
            }
            2 => [u32::MAX, u32::MAX - 1, i32::MAX as u32, 0x8000_0000][self.below(4) as usize],
            3 => self.below(300) as u32,
            _ => self.next() as u32,
        }
    }

    /// A size: small, level limits and beyond, or absurd.
    pub fn dim(&mut self) -> u32 {
        match self.below(4) {
            0 => 1 + self.below(16) as u32,
            1 => [0, 2048, 2049, 4096, 4097, 8192, 65535, 65536][self.below(8) as usize],
            2 => 1 << self.below(12),
            _ => self.u32(),
        }
    }

    pub fn i32(&mut self) -> i32 {
        match self.below(3) {
            0 => self.below(40) as i32 - 20,
            1 => [i32::MIN, i32::MAX, -1, 0][self.below(4) as usize],
            _ => self.u32() as i32,
        }
    }

    pub fn f32(&mut self) -> f32 {
        match self.below(5) {
            0 => {
                [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -0.0][self.below(5) as usize]
            }
            1 => f32::from_bits(self.next() as u32),
            _ => (self.below(2001) as f32 - 1000.0) / 100.0,
        }
    }

    pub fn bytes(&mut self, max: u64) -> Vec<u8> {
        let n = self.below(max + 1) as usize;
        (0..n).map(|_| self.next() as u8).collect()
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    pub fn rect(&mut self) -> Rect {
        if self.chance(2) {
            let (l, t) = (self.below(70) as i32 - 3, self.below(70) as i32 - 3);
            Rect::new(
                l,
                t,
                l + self.below(70) as i32 - 3,
                t + self.below(70) as i32 - 3,
            )
        } else {
            Rect::new(self.i32(), self.i32(), self.i32(), self.i32())
        }
    }

    pub fn small_or_wild(&mut self) -> u32 {
        if self.chance(2) {
            self.below(70) as u32
        } else {
            self.u32()
        }
    }
}
