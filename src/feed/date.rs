//! Calendar dates (`YYYY-MM-DD`, proleptic Gregorian) without a time zone: the feed's days.

use std::fmt;

/// A calendar date.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Days since 1970-01-01 (negative before).
    days: i64,
}

/// The weekdays, Monday first.
pub const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const WEEKDAY_NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl Date {
    /// Parse `YYYY-MM-DD` (a real date, years 1000 to 9999); `None` otherwise.
    pub fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |s: &str| -> Option<i64> {
            s.bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| s.parse().ok())?
        };
        let (y, m, d) = (num(&text[..4])?, num(&text[5..7])?, num(&text[8..])?);
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let month_days = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        let valid = y >= 1000 && (1..=12).contains(&m) && d >= 1 && d <= month_days[m as usize - 1];
        valid.then(|| Date {
            days: days_from_civil(y, m, d),
        })
    }
    /// The date `n` days later (earlier for negative `n`).
    pub fn add_days(self, n: i64) -> Date {
        Date {
            days: self.days + n,
        }
    }
    /// Days from `other` to `self`.
    pub fn days_since(self, other: Date) -> i64 {
        self.days - other.days
    }
    /// 0 = Monday .. 6 = Sunday.
    pub fn weekday(self) -> usize {
        // 1970-01-01 was a Thursday (3).
        (self.days + 3).rem_euclid(7) as usize
    }
    /// `(year, month, day)`.
    pub fn ymd(self) -> (i64, i64, i64) {
        civil_from_days(self.days)
    }
    /// The date as the number YYYYMMDD (`feed --generate`'s default seed).
    pub fn to_yyyymmdd(self) -> u64 {
        let (y, m, d) = self.ymd();
        (y * 10_000 + m * 100 + d) as u64
    }
    /// RFC 822 / RSS form at midnight UTC: `Fri, 27 Nov 2026 00:00:00 GMT`.
    pub fn rfc822(self) -> String {
        let (y, m, d) = self.ymd();
        let (day, month) = (WEEKDAY_NAMES[self.weekday()], MONTH_NAMES[m as usize - 1]);
        format!("{day}, {d:02} {month} {y} 00:00:00 GMT")
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

// Howard Hinnant's `days_from_civil` and `civil_from_days` (chrono-compatible date algorithms).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_prints_and_counts() {
        let d = Date::parse("2026-11-30").unwrap();
        assert_eq!(d.to_string(), "2026-11-30");
        assert_eq!(WEEKDAYS[d.weekday()], "mon", "2026-11-30 is a Monday");
        assert_eq!(d.add_days(1).to_string(), "2026-12-01");
        assert_eq!(
            Date::parse("2024-02-29").unwrap().add_days(366).to_string(),
            "2025-03-01"
        );
        let epoch = Date::parse("1970-01-01").unwrap();
        assert_eq!(epoch.weekday(), 3);
        assert_eq!(d.days_since(epoch), 20_787);
        assert_eq!(d.to_yyyymmdd(), 20_261_130);
        assert_eq!(Date::parse("1000-01-01").unwrap().to_yyyymmdd(), 10_000_101);
        assert_eq!(
            Date::parse("2026-11-27").unwrap().rfc822(),
            "Fri, 27 Nov 2026 00:00:00 GMT"
        );
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-1-01",
            "26-11-27",
            "2026-11-27x",
            "2026-00-10",
            "+026-11-27",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
        // Round trip over four centuries of days.
        let mut day = Date::parse("1999-12-31").unwrap();
        for _ in 0..(400 * 366) {
            assert_eq!(Date::parse(&day.to_string()), Some(day));
            day = day.add_days(1);
        }
    }
}
