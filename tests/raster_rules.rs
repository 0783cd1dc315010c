//! Rule tests with hand-computed expectations: fill convention, culling,
//! clipping, depth, stencil, alpha test, blending, formats.

mod raster_support;

use raster_support::*;
use warp9::{DriverType, PrimitiveType};

const WHITE: u32 = 0xFFFF_FFFF;

fn both(f: impl Fn(DriverType)) {
    f(DriverType::Warp);
    f(DriverType::Reference);
}

#[test]
fn quad_0_0_4_4_covers_pixels_0_to_3() {
    both(|driver| {
        let mut d = device(&Opts {
            driver,
            size: (8, 8),
            ..Opts::default()
        });
        tri(&mut d, [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)], WHITE);
        tri(&mut d, [(0.0, 0.0), (4.0, 4.0), (0.0, 4.0)], WHITE);
        let want = [
            "####....", "####....", "####....", "####....", "........", "........", "........",
            "........",
        ];
        assert_eq!(coverage(&d, 0), want, "{driver:?}");
    });
}
