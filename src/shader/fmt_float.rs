//! Float formatting the way fxc's listings print `def` values: C's
//! `printf("%.9g")` with the Microsoft C runtime's three-digit exponent
//! (`1.1920929e-007`). Nine significant digits identify every binary32
//! value, so parsing the text as `f32` gives back the same bits.
//! Non-finite values have no such text and are printed as their bit
//! pattern (`0x7fc00000`), which the assembler also accepts.

/// Format one `def` component.
pub(crate) fn format_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if !v.is_finite() {
        return format!("{bits:#010x}");
    }
    if v == 0.0 {
        return if v.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let d = v as f64;
    let sci = format!("{d:.8e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..9).contains(&exp) {
        let mant = strip_zeros(mant);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:03}", exp.unsigned_abs())
    } else {
        let decimals = (8 - exp) as usize;
        strip_zeros(&format!("{d:.decimals$}")).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::format_f32;

    #[test]
    fn matches_fxc_listing_text() {
        let cases: [(f32, &str); 10] = [
            (1.0, "1"),
            (0.5, "0.5"),
            (-1.111_111_2, "-1.11111116"),
            (0.100_000_024, "0.100000024"),
            (1.192_092_9e-7, "1.1920929e-007"),
            (1e-4, "9.99999975e-005"),
            (18.851_562, "18.8515625"),
            (-0.0, "-0"),
            (1e10, "1e+010"),
            (123_456_790.0, "123456792"),
        ];
        for (v, s) in cases {
            assert_eq!(format_f32(v.to_bits()), s, "{v}");
            assert_eq!(s.parse::<f32>().unwrap().to_bits(), v.to_bits());
        }
        assert_eq!(format_f32(f32::NAN.to_bits()), "0x7fc00000");
    }
}
