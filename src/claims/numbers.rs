//! Reading a count as a document writes it: digits, or a number word in German or English
//! (`sieben`, `zwölf`, `einundzwanzig`, `twelve`, `twenty-one`), 0 to 100. A word this cannot
//! read is an error of its own: guessing would turn a typo into drift, or drift into silence.

/// Why a group's text is not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable(pub String);

/// The number a group's text states. Markdown emphasis and code marks around it are ignored
/// (`**sieben**`, `` `12` ``), and so is case (`Zwölf` at the start of a sentence).
pub fn read(text: &str) -> Result<u64, Unreadable> {
    let t = text
        .trim()
        .trim_matches(|c: char| matches!(c, '*' | '_' | '`' | '~') || c.is_whitespace());
    if t.is_empty() {
        return Err(Unreadable(text.to_string()));
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return t.parse().map_err(|_| Unreadable(t.to_string()));
    }
    // Thousands separators as German and Swiss texts write them (1'200, 1.200) are not counts
    // a catalogue reaches; anything but a plain word is unreadable.
    let word = fold(t);
    german(&word)
        .or_else(|| english(&word))
        .ok_or_else(|| Unreadable(t.to_string()))
}

/// Lower case, umlauts and ß spelled out, so `zwölf`, `zwoelf` and `ZWÖLF` compare equal.
fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            c => out.push(c),
        }
    }
    out
}

const DE_UNITS: &[(&str, u64)] = &[
    ("null", 0),
    ("kein", 0),
    ("keine", 0),
    ("keinen", 0),
    ("eins", 1),
    ("ein", 1),
    ("eine", 1),
    ("einen", 1),
    ("einer", 1),
    ("zwei", 2),
    ("drei", 3),
    ("vier", 4),
    ("fuenf", 5),
    ("sechs", 6),
    ("sieben", 7),
    ("acht", 8),
    ("neun", 9),
    ("zehn", 10),
    ("elf", 11),
    ("zwoelf", 12),
    ("dreizehn", 13),
    ("vierzehn", 14),
    ("fuenfzehn", 15),
    ("sechzehn", 16),
    ("siebzehn", 17),
    ("achtzehn", 18),
    ("neunzehn", 19),
    ("hundert", 100),
    ("einhundert", 100),
];

const DE_TENS: &[(&str, u64)] = &[
    ("zwanzig", 20),
    ("dreissig", 30),
    ("vierzig", 40),
    ("fuenfzig", 50),
    ("sechzig", 60),
    ("siebzig", 70),
    ("achtzig", 80),
    ("neunzig", 90),
];

fn lookup(table: &[(&str, u64)], w: &str) -> Option<u64> {
    table.iter().find(|(k, _)| *k == w).map(|(_, v)| *v)
}

fn german(w: &str) -> Option<u64> {
    if let Some(n) = lookup(DE_UNITS, w).or_else(|| lookup(DE_TENS, w)) {
        return Some(n);
    }
    // einundzwanzig … neunundneunzig: the unit comes first, joined by `und`.
    let (unit, tens) = w.split_once("und")?;
    let unit = match unit {
        "ein" => 1,
        u => lookup(DE_UNITS, u).filter(|n| (2..=9).contains(n))?,
    };
    Some(lookup(DE_TENS, tens)? + unit)
}

const EN_UNITS: &[(&str, u64)] = &[
    ("zero", 0),
    ("no", 0),
    ("none", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("hundred", 100),
];

const EN_TENS: &[(&str, u64)] = &[
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy", 70),
    ("eighty", 80),
    ("ninety", 90),
];

fn english(w: &str) -> Option<u64> {
    let parts: Vec<&str> = w.split(['-', ' ']).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [one] => lookup(EN_UNITS, one).or_else(|| lookup(EN_TENS, one)),
        ["one" | "a", "hundred"] => Some(100),
        [tens, unit] => {
            let u = lookup(EN_UNITS, unit).filter(|n| (1..=9).contains(n))?;
            Some(lookup(EN_TENS, tens)? + u)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn digits_and_emphasis() {
        assert_eq!(read("120"), Ok(120));
        assert_eq!(read(" **7** "), Ok(7));
        assert_eq!(read("`12`"), Ok(12));
    }

    #[test]
    fn german_words() {
        for (w, n) in [
            ("null", 0),
            ("eins", 1),
            ("ein", 1),
            ("sieben", 7),
            ("Sieben", 7),
            ("zwölf", 12),
            ("zwoelf", 12),
            ("ZWÖLF", 12),
            ("sechzehn", 16),
            ("siebzehn", 17),
            ("zwanzig", 20),
            ("einundzwanzig", 21),
            ("dreißig", 30),
            ("dreissig", 30),
            ("zweiunddreissig", 32),
            ("fünfundfünfzig", 55),
            ("neunundneunzig", 99),
            ("hundert", 100),
        ] {
            assert_eq!(read(w), Ok(n), "{w}");
        }
    }

    #[test]
    fn english_words() {
        for (w, n) in [
            ("zero", 0),
            ("seven", 7),
            ("Twelve", 12),
            ("fourteen", 14),
            ("twenty", 20),
            ("twenty-one", 21),
            ("twenty one", 21),
            ("ninety-nine", 99),
            ("one hundred", 100),
        ] {
            assert_eq!(read(w), Ok(n), "{w}");
        }
    }

    #[test]
    fn every_number_to_ninety_nine_reads_in_both_languages() {
        let de_units = [
            "", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
        ];
        let de_tens = [
            "", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig",
            "neunzig",
        ];
        let en_units = [
            "", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
        ];
        let en_tens = [
            "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
        ];
        for n in 20..100usize {
            let (t, u) = (n / 10, n % 10);
            let de = if u == 0 {
                de_tens[t].to_string()
            } else {
                format!("{}und{}", de_units[u], de_tens[t])
            };
            let en = if u == 0 {
                en_tens[t].to_string()
            } else {
                format!("{}-{}", en_tens[t], en_units[u])
            };
            assert_eq!(read(&de), Ok(n as u64), "{de}");
            assert_eq!(read(&en), Ok(n as u64), "{en}");
        }
    }

    #[test]
    fn unreadable_words_are_not_guessed() {
        for w in [
            "siebn",
            "zwölfe",
            "einsundzwanzig",
            "twenty-ten",
            "many",
            "",
            "12a",
            "1.200",
            "nullundzwanzig",
        ] {
            assert!(read(w).is_err(), "{w}");
        }
    }
}
