//! Games kept as files: `save FILE` writes the game as a record
//! (`docs/records.md`), `--load FILE` reads one and plays on from the end of
//! its main line.

use std::path::Path;

use sygo_records::{GameInfo, LoadError, Record};
use sygo_rules::Game;

/// The game of a record: its main line, and the information to keep when it
/// is saved again.
///
/// # Errors
///
/// [`LoadError`] when the file cannot be read, or is not a legal record
/// (with the node and the reason).
pub fn load(path: &Path) -> Result<(Game, GameInfo), LoadError> {
    let record = Record::read_file(path)?;
    Ok((record.main_line(), record.info().clone()))
}

/// Writes a game as a record; the result is filled in when the game is over.
///
/// # Errors
///
/// When the file cannot be written.
pub fn save(path: &Path, game: &Game, info: GameInfo) -> std::io::Result<()> {
    std::fs::write(path, Record::from_game(game, info).to_sgf())
}

/// Today's date as SGF writes it (`2025-06-01`), in UTC, from the system
/// clock; `None` if the clock is before 1970.
pub fn today() -> Option<String> {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    let (y, m, d) = civil_from_days(i64::try_from(seconds / 86_400).ok()?);
    Some(format!("{y:04}-{m:02}-{d:02}"))
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // [0, 146096]
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11], from March
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_240), (2025, 6, 1));
    }
}
