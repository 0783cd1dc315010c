//! The one reader of index-buffer bytes (D3DFMT_INDEX16 / INDEX32, little
//! endian). Draw validation finds the range and the offending index with
//! it; the pipeline reads vertex numbers and dense offsets with it.
//!
//! Aligned bytes (the common case: a buffer's storage, a `&[u16]` cast to
//! bytes) are read as a slice of integers, a loop the compiler vectorises;
//! unaligned bytes (a `DrawIndexedPrimitiveUP` slice can start anywhere)
//! take the byte-wise form, with the same values.

/// A run of indices: `bytes` holds exactly the indices a draw reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IndexList<'a> {
    bytes: &'a [u8],
    index32: bool,
}

impl<'a> IndexList<'a> {
    /// The indices in `bytes` (a whole number of 2- or 4-byte indices;
    /// trailing bytes of a partial index are ignored).
    pub(crate) fn new(bytes: &'a [u8], index32: bool) -> Self {
        IndexList { bytes, index32 }
    }

    /// Bytes per index.
    pub(crate) fn index_size(index32: bool) -> usize {
        if index32 { 4 } else { 2 }
    }

    /// Number of indices.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / Self::index_size(self.index32)
    }

    /// Index `i` (`i < len()`), for the slow paths that need a position.
    pub(crate) fn get(&self, i: usize) -> u32 {
        if self.index32 {
            let b = &self.bytes[4 * i..4 * i + 4];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        } else {
            u32::from(u16::from_le_bytes([
                self.bytes[2 * i],
                self.bytes[2 * i + 1],
            ]))
        }
    }

    /// Appends `f(index)` for every index, in order.
    pub(crate) fn extend_mapped<T>(&self, out: &mut Vec<T>, f: impl Fn(u32) -> T) {
        let little = cfg!(target_endian = "little");
        if self.index32 {
            match bytemuck::try_cast_slice::<u8, u32>(self.whole()) {
                Ok(words) if little => out.extend(words.iter().map(|&v| f(v))),
                _ => out.extend(
                    self.whole()
                        .chunks_exact(4)
                        .map(|c| f(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
                ),
            }
        } else {
            match bytemuck::try_cast_slice::<u8, u16>(self.whole()) {
                Ok(halves) if little => out.extend(halves.iter().map(|&v| f(u32::from(v)))),
                _ => out.extend(
                    self.whole()
                        .chunks_exact(2)
                        .map(|c| f(u32::from(u16::from_le_bytes([c[0], c[1]])))),
                ),
            }
        }
    }

    /// The smallest and largest index, or `None` for an empty list.
    pub(crate) fn min_max(&self) -> Option<(u32, u32)> {
        let fold = |(lo, hi): (u32, u32), v: u32| (lo.min(v), hi.max(v));
        let start = (u32::MAX, 0);
        let little = cfg!(target_endian = "little");
        let found = if self.index32 {
            match bytemuck::try_cast_slice::<u8, u32>(self.whole()) {
                Ok(words) if little => words.iter().fold(start, |a, &v| fold(a, v)),
                _ => (0..self.len()).fold(start, |a, i| fold(a, self.get(i))),
            }
        } else {
            match bytemuck::try_cast_slice::<u8, u16>(self.whole()) {
                Ok(halves) if little => halves.iter().fold(start, |a, &v| fold(a, u32::from(v))),
                _ => (0..self.len()).fold(start, |a, i| fold(a, self.get(i))),
            }
        };
        (self.len() > 0).then_some(found)
    }

    /// The bytes of the whole indices.
    fn whole(&self) -> &'a [u8] {
        &self.bytes[..self.len() * Self::index_size(self.index32)]
    }
}

#[cfg(test)]
mod tests {
    use super::IndexList;

    fn list_values(list: IndexList) -> Vec<u32> {
        let mut out = Vec::new();
        list.extend_mapped(&mut out, |v| v);
        out
    }

    /// Aligned and unaligned bytes read the same little-endian values.
    #[test]
    fn aligned_and_unaligned_read_the_same_indices() {
        let values16: [u16; 5] = [7, 0, 0xFFFF, 0x1234, 3];
        let values32: [u32; 4] = [0, 0xFFFF_FFFF, 0x0102_0304, 65_536];
        for shift in 0..4 {
            let mut b16 = vec![0xEEu8; shift];
            b16.extend(values16.iter().flat_map(|v| v.to_le_bytes()));
            let l16 = IndexList::new(&b16[shift..], false);
            assert_eq!(l16.len(), 5);
            assert_eq!(
                list_values(l16),
                values16.map(u32::from).to_vec(),
                "shift {shift}"
            );
            assert_eq!(l16.min_max(), Some((0, 0xFFFF)));
            assert_eq!(l16.get(3), 0x1234);

            let mut b32 = vec![0xEEu8; shift];
            b32.extend(values32.iter().flat_map(|v| v.to_le_bytes()));
            let l32 = IndexList::new(&b32[shift..], true);
            assert_eq!(l32.len(), 4);
            assert_eq!(list_values(l32), values32.to_vec(), "shift {shift}");
            assert_eq!(l32.min_max(), Some((0, 0xFFFF_FFFF)));
            assert_eq!(l32.get(2), 0x0102_0304);
        }
    }

    /// A trailing partial index is not read; an empty list has no range.
    #[test]
    fn partial_index_is_ignored_and_empty_has_no_range() {
        let l = IndexList::new(&[1, 0, 2], false);
        assert_eq!(l.len(), 1);
        assert_eq!(list_values(l), vec![1]);
        assert_eq!(IndexList::new(&[9, 9, 9], true).min_max(), None);
        assert_eq!(IndexList::new(&[], false).min_max(), None);
    }
}
