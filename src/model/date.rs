//! Calendar dates as the format writes them (`YYYY-MM-DD`). A date that has the right shape
//! but names no day (`2026-13-45`, `2026-02-30`) is as wrong as one in the wrong shape: it
//! would sort, compare and expire by a day that does not exist.

/// Today's date in UTC, `YYYY-MM-DD` (the default audit date for waivers).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    civil_date((secs / 86_400) as i64)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
pub fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Whether `s` is a real day written `YYYY-MM-DD` (proleptic Gregorian calendar).
pub fn is_calendar_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::is_calendar_date;

    #[test]
    fn real_days_only() {
        for ok in ["2026-08-07", "2024-02-29", "2000-02-29", "1999-12-31"] {
            assert!(is_calendar_date(ok), "{ok}");
        }
        for bad in [
            "2026-13-45",
            "2026-02-30",
            "2025-02-29",
            "1900-02-29",
            "2026-04-31",
            "2026-00-10",
            "2026-01-00",
            "26-01-01",
            "2026-1-01",
            "2026-01-01 ",
            "２０２６-01-01",
            "",
        ] {
            assert!(!is_calendar_date(bad), "{bad}");
        }
    }
}
