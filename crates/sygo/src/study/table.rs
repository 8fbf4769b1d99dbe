//! What a study keeps on disk: its parameters (`study.txt`) and a row per
//! game (`games.csv`), written and read back.
//!
//! `study.txt` is `key = value` lines; a study is resumed only when every
//! line is the same. `games.csv` is RFC 4180 CSV (fields with commas,
//! quotes or spaces quoted), a header, then one row per game in the order
//! of the games, each row written whole at once and only after the rows
//! before it. A row is a function of the parameters and the game's number
//! alone, so the file does not depend on how many threads played it.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use sygo_arena::{GameEnd, GameReport};
use sygo_rules::{Color, Turn, TurnKind, Variant};

/// The format of `study.txt` and `games.csv`; a study of another format is
/// not resumed.
const FORMAT: &str = "1";

/// The columns of `games.csv`, in order.
pub const HEADER: &[&str] = &[
    "game",
    "seed",
    "result",
    "winner",
    "margin",
    "white",
    "black",
    "end",
    "turns",
    "stones",
    "balance",
    "first_growth",
    "first_grower",
    "opening",
    "moves",
];

/// How many turns the `opening` column holds.
pub const OPENING_TURNS_SHOWN: usize = 4;

/// What every game of a study is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Sygo or Hexsygo.
    pub variant: Variant,
    /// The board's size (N, or the hexagon's base).
    pub size: u8,
    /// Whether Black may make the balance turn.
    pub balance: bool,
    /// The player of both sides, as written (with `threads=1` added for
    /// `mcts`).
    pub player: String,
    /// Playouts per turn given by `--visits` (the player's own otherwise).
    pub visits: Option<u64>,
    /// Random turns played first.
    pub opening_turns: usize,
    /// The study's seed.
    pub seed: u64,
}

impl Params {
    /// The lines of `study.txt`, as `(key, value)`.
    fn lines(&self) -> Vec<(&'static str, String)> {
        vec![
            ("format", FORMAT.to_string()),
            ("variant", self.variant.name().to_string()),
            ("size", self.size.to_string()),
            ("balance", on_off(self.balance).to_string()),
            ("player", self.player.clone()),
            (
                "visits",
                self.visits.map_or("player".to_string(), |v| v.to_string()),
            ),
            ("opening_turns", self.opening_turns.to_string()),
            ("seed", self.seed.to_string()),
        ]
    }

    /// `study.txt`'s text.
    pub fn to_text(&self) -> String {
        let mut text = String::from(
            "# sygo study: what the games of games.csv are played with.\n\
             # A study is resumed only with the same options; do not edit.\n",
        );
        for (key, value) in self.lines() {
            text.push_str(&format!("{key} = {value}\n"));
        }
        text
    }

    /// Reads `study.txt`'s text.
    ///
    /// # Errors
    ///
    /// A line that is not `key = value`, a key missing, a value that does
    /// not read, or another format.
    pub fn parse(text: &str) -> anyhow::Result<Params> {
        let mut values = std::collections::BTreeMap::new();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line
                .split_once('=')
                .with_context(|| format!("{line:?} is not `key = value`"))?;
            values.insert(key.trim().to_string(), value.trim().to_string());
        }
        let get = |key: &str| {
            values
                .get(key)
                .map(String::as_str)
                .with_context(|| format!("no {key} line"))
        };
        let format = get("format")?;
        if format != FORMAT {
            bail!("format {format}, not {FORMAT}: written by another version of sygo");
        }
        let variant = Variant::from_name(get("variant")?).context("an unknown variant")?;
        let number = |key: &str| -> anyhow::Result<u64> {
            get(key)?
                .parse()
                .with_context(|| format!("{key} is not a number"))
        };
        Ok(Params {
            variant,
            size: u8::try_from(number("size")?).context("size is out of range")?,
            balance: match get("balance")? {
                "on" => true,
                "off" => false,
                other => bail!("balance = {other}: write on or off"),
            },
            player: get("player")?.to_string(),
            visits: match get("visits")? {
                "player" => None,
                _ => Some(number("visits")?),
            },
            opening_turns: usize::try_from(number("opening_turns")?)
                .context("opening_turns is out of range")?,
            seed: number("seed")?,
        })
    }

    /// The parameters that differ from `other`'s, as `key: ours, theirs`.
    pub fn differences(&self, other: &Params) -> Vec<String> {
        self.lines()
            .into_iter()
            .zip(other.lines())
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, b)| format!("{} {} (asked: {})", a.0, b.1, a.1))
            .collect()
    }

    /// The board as people name it: `Sygo 9×9`, `Hexsygo 5`.
    pub fn board_name(&self) -> String {
        board_name(self.variant, self.size)
    }
}

/// The board as people name it: `Sygo 9×9`, `Hexsygo 5`.
pub fn board_name(variant: Variant, size: u8) -> String {
    match variant {
        Variant::Sygo => format!("Sygo {size}×{size}"),
        Variant::Hexsygo => format!("Hexsygo {size}"),
    }
}

/// `on` or `off`.
pub fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Two passes; the score decided.
    Score,
    /// A player resigned.
    Resignation,
    /// A player played an illegal turn (a bug of the player).
    Forfeit,
}

impl End {
    fn name(self) -> &'static str {
        match self {
            End::Score => "score",
            End::Resignation => "resignation",
            End::Forfeit => "forfeit",
        }
    }
}

/// Whether Black's balance turn was played in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balance {
    /// Black played it.
    Used,
    /// Black could have, but the game went on without it (a growth turn
    /// came first, or none at all).
    Unused,
    /// The study is without the balance turn.
    Off,
}

impl Balance {
    fn name(self) -> &'static str {
        match self {
            Balance::Used => "yes",
            Balance::Unused => "no",
            Balance::Off => "off",
        }
    }
}

/// One game of a study: a row of `games.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's number, from 1.
    pub game: usize,
    /// The game's own seed (derived from the study's seed and the number).
    pub seed: u64,
    /// As SGF writes it: `W+12`, `B+R`, `W+F`, `0`.
    pub result: String,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// White's score less Black's, when the score decided.
    pub margin: Option<i64>,
    /// White's and Black's final scores, when the score decided.
    pub scores: Option<(u32, u32)>,
    /// How it ended.
    pub end: End,
    /// Turns played, passes included.
    pub turns: usize,
    /// Stones played (the steps of every turn).
    pub stones: usize,
    /// The balance turn.
    pub balance: Balance,
    /// The first growth turn (a balance turn counts), numbered from 1, and
    /// who played it.
    pub first_growth: Option<(usize, Color)>,
    /// Every turn as written (`E5`, `D4,F6`, `pass`).
    pub moves: Vec<String>,
}

impl GameRow {
    /// The row of a game played, `seed` its own seed.
    pub fn of(report: &GameReport, seed: u64, balance_allowed: bool) -> GameRow {
        let game = &report.game;
        let geometry = game.start().geometry();
        let summaries = game.summaries();
        let (margin, scores, end) = match &report.end {
            GameEnd::Score(score) => (
                Some(i64::from(score.white) - i64::from(score.black)),
                Some((score.white, score.black)),
                End::Score,
            ),
            GameEnd::Resignation { .. } => (None, None, End::Resignation),
            GameEnd::Forfeit { .. } => (None, None, End::Forfeit),
        };
        let first_growth = summaries
            .iter()
            .enumerate()
            .find(|(_, s)| matches!(s.kind, TurnKind::Growth | TurnKind::Balance))
            .map(|(i, s)| (i + 1, s.color));
        let used = summaries.iter().any(|s| s.kind == TurnKind::Balance);
        GameRow {
            game: report.index + 1,
            seed,
            result: report.result_text(),
            winner: report.winner(),
            margin,
            scores,
            end,
            turns: game.turns().len(),
            stones: game
                .turns()
                .iter()
                .map(|t| match t {
                    Turn::Stones(stones) => stones.len(),
                    _ => 0,
                })
                .sum(),
            balance: match (balance_allowed, used) {
                (false, _) => Balance::Off,
                (true, true) => Balance::Used,
                (true, false) => Balance::Unused,
            },
            first_growth,
            moves: game
                .turns()
                .iter()
                .map(|t| t.to_notation(&geometry))
                .collect(),
        }
    }

    /// The fields, in the order of [`HEADER`].
    fn fields(&self) -> Vec<String> {
        let opt = |v: Option<String>| v.unwrap_or_default();
        vec![
            self.game.to_string(),
            self.seed.to_string(),
            self.result.clone(),
            self.winner.map_or("draw", |c| c.lowercase()).to_string(),
            opt(self.margin.map(|m| m.to_string())),
            opt(self.scores.map(|s| s.0.to_string())),
            opt(self.scores.map(|s| s.1.to_string())),
            self.end.name().to_string(),
            self.turns.to_string(),
            self.stones.to_string(),
            self.balance.name().to_string(),
            opt(self.first_growth.map(|g| g.0.to_string())),
            opt(self.first_growth.map(|g| g.1.lowercase().to_string())),
            self.moves
                .iter()
                .take(OPENING_TURNS_SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
            self.moves.join(" "),
        ]
    }

    /// The row as a line of CSV, newline included.
    pub fn to_line(&self) -> String {
        csv_line(&self.fields())
    }

    /// Reads a row from its fields.
    fn parse(fields: &[String]) -> Result<GameRow, String> {
        if fields.len() != HEADER.len() {
            return Err(format!("{} fields, not {}", fields.len(), HEADER.len()));
        }
        let f = |name: &str| -> &str {
            let i = HEADER.iter().position(|h| *h == name).unwrap_or(0);
            fields[i].as_str()
        };
        fn num<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
            text.parse()
                .map_err(|_| format!("{name} {text:?} is not a number"))
        }
        fn opt_num<T: std::str::FromStr>(name: &str, text: &str) -> Result<Option<T>, String> {
            if text.is_empty() {
                Ok(None)
            } else {
                num(name, text).map(Some)
            }
        }
        let color = |name: &str, text: &str| -> Result<Color, String> {
            Color::from_name(text).ok_or_else(|| format!("{name} {text:?} is not a colour"))
        };
        let winner = match f("winner") {
            "draw" => None,
            text => Some(color("winner", text)?),
        };
        let end = match f("end") {
            "score" => End::Score,
            "resignation" => End::Resignation,
            "forfeit" => End::Forfeit,
            other => {
                return Err(format!(
                    "end {other:?} is not score, resignation or forfeit"
                ));
            }
        };
        let balance = match f("balance") {
            "yes" => Balance::Used,
            "no" => Balance::Unused,
            "off" => Balance::Off,
            other => return Err(format!("balance {other:?} is not yes, no or off")),
        };
        let white: Option<u32> = opt_num("white", f("white"))?;
        let black: Option<u32> = opt_num("black", f("black"))?;
        let first_growth = match opt_num::<usize>("first_growth", f("first_growth"))? {
            Some(turn) => Some((turn, color("first_grower", f("first_grower"))?)),
            None => None,
        };
        let moves: Vec<String> = f("moves").split_whitespace().map(String::from).collect();
        Ok(GameRow {
            game: num("game", f("game"))?,
            seed: num("seed", f("seed"))?,
            result: f("result").to_string(),
            winner,
            margin: opt_num("margin", f("margin"))?,
            scores: white.zip(black),
            end,
            turns: num("turns", f("turns"))?,
            stones: num("stones", f("stones"))?,
            balance,
            first_growth,
            moves,
        })
    }
}

/// A line of CSV from its fields, newline included: a field with a comma,
/// a quote, white space or nothing special quoted only when it must be.
fn csv_line(fields: &[impl AsRef<str>]) -> String {
    let mut line = String::new();
    for (i, field) in fields.iter().enumerate() {
        let field = field.as_ref();
        if i > 0 {
            line.push(',');
        }
        if field.contains([',', '"', '\n', '\r', ' ']) {
            line.push('"');
            line.push_str(&field.replace('"', "\"\""));
            line.push('"');
        } else {
            line.push_str(field);
        }
    }
    line.push('\n');
    line
}

/// The fields of one line of CSV (no newline inside a field: ours have
/// none).
fn split_csv(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => return Err("a quote is not closed".to_string()),
                }
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Ok(fields);
                }
                Some(',') => fields.push(field),
                Some(c) => return Err(format!("{c:?} after a closing quote")),
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Ok(fields);
                    }
                    Some(',') => break,
                    Some(c) => field.push(c),
                }
            }
            fields.push(field);
        }
    }
}

/// A study's folder: its parameters, its games so far, and the CSV open
/// for more.
pub struct StudyFiles {
    /// `games.csv`.
    pub csv_path: PathBuf,
    /// The games already played, in order.
    pub rows: Vec<GameRow>,
    csv: File,
}

impl fmt::Debug for StudyFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StudyFiles")
            .field("csv_path", &self.csv_path)
            .field("rows", &self.rows.len())
            .finish()
    }
}

/// The parameters file of a folder.
pub fn params_path(dir: &Path) -> PathBuf {
    dir.join("study.txt")
}

/// The CSV of a folder.
pub fn csv_path(dir: &Path) -> PathBuf {
    dir.join("games.csv")
}

impl StudyFiles {
    /// Opens the study in `dir` for `params`: a new one (the folder made if
    /// needed, `study.txt` and the header written), or one begun with the
    /// same parameters, its rows read back. An unfinished last line (the
    /// program stopped while writing it) is cut off.
    ///
    /// # Errors
    ///
    /// The folder holds a study with other parameters, or files that do
    /// not read as a study; the files cannot be made or read.
    pub fn open(dir: &Path, params: &Params) -> anyhow::Result<StudyFiles> {
        fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
        let params_path = params_path(dir);
        let csv_path = csv_path(dir);
        if csv_path.exists() && !params_path.exists() {
            bail!(
                "{} has a games.csv but no study.txt: not a study of sygo study; give another \
                 --out",
                dir.display()
            );
        }
        // The CSV is locked while the study runs, so that two studies never
        // write one file (the lock goes with the process, however it ends).
        let csv = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&csv_path)
            .with_context(|| format!("cannot open {}", csv_path.display()))?;
        match fs4::FileExt::try_lock(&csv) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => bail!(
                "another sygo study is playing the games of {} now: let it finish, or stop it \
                 first",
                dir.display()
            ),
            Err(fs4::TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", csv_path.display()));
            }
        }
        match fs::read_to_string(&params_path) {
            Ok(text) => {
                let theirs = Params::parse(&text).with_context(|| {
                    format!("{} does not read as a study's", params_path.display())
                })?;
                let differences = params.differences(&theirs);
                if !differences.is_empty() {
                    bail!(
                        "{} holds a study played with other options: {}. Resume it with its own \
                         options, or give another --out",
                        dir.display(),
                        differences.join(", ")
                    );
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                fs::write(&params_path, params.to_text())
                    .with_context(|| format!("cannot write {}", params_path.display()))?;
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read {}", params_path.display()));
            }
        }
        let rows = read_rows_repairing(&csv_path)?;
        let mut files = StudyFiles {
            csv_path,
            rows,
            csv,
        };
        if files.csv.metadata()?.len() == 0 {
            files.append_line(&csv_line(HEADER))?;
        }
        Ok(files)
    }

    /// Appends a game's row (the next game's).
    ///
    /// # Errors
    ///
    /// The write fails.
    pub fn append(&mut self, row: GameRow) -> anyhow::Result<()> {
        debug_assert_eq!(row.game, self.rows.len() + 1);
        self.append_line(&row.to_line())?;
        self.rows.push(row);
        Ok(())
    }

    /// Writes a whole line with one write, so that a study stopped at any
    /// moment leaves whole rows (or, at worst, a last line without its
    /// newline, cut off when it resumes).
    fn append_line(&mut self, line: &str) -> anyhow::Result<()> {
        self.csv
            .write_all(line.as_bytes())
            .and_then(|()| self.csv.flush())
            .with_context(|| format!("cannot write {}", self.csv_path.display()))
    }
}

/// The rows of a study's CSV (none when it does not exist yet), the file
/// cut back to its last whole line first.
fn read_rows_repairing(path: &Path) -> anyhow::Result<Vec<GameRow>> {
    let text = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        file.set_len(whole as u64).with_context(|| {
            format!("cannot cut the unfinished last line of {}", path.display())
        })?;
        eprintln!(
            "sygo study: the last line of {} was unfinished (the study was stopped while \
             writing it): cut off, its game is played again",
            path.display()
        );
    }
    let text = String::from_utf8(text[..whole].to_vec())
        .with_context(|| format!("{} is not text", path.display()))?;
    parse_rows(&text).with_context(|| format!("{} does not read as a study's", path.display()))
}

/// Reads a study's CSV: the header, then the games numbered from 1.
///
/// # Errors
///
/// Another header, a row that does not read, or rows out of order.
pub fn parse_rows(text: &str) -> anyhow::Result<Vec<GameRow>> {
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(header) if header == csv_line(HEADER).trim_end() => {}
        Some(header) => bail!("its header is {header:?}, not this version's"),
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let row = split_csv(line)
            .and_then(|fields| GameRow::parse(&fields))
            .map_err(|e| anyhow::anyhow!("line {}: {e}", i + 2))?;
        if row.game != rows.len() + 1 {
            bail!(
                "line {}: game {} where game {} should be",
                i + 2,
                row.game,
                rows.len() + 1
            );
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Reads a finished or unfinished study's folder without changing it.
///
/// # Errors
///
/// A missing or unreadable `study.txt` or `games.csv`.
pub fn read_study(dir: &Path) -> anyhow::Result<(Params, Vec<GameRow>)> {
    let params_path = params_path(dir);
    let text = fs::read_to_string(&params_path)
        .with_context(|| format!("{} is not a study: cannot read", params_path.display()))?;
    let params = Params::parse(&text)
        .with_context(|| format!("{} does not read as a study's", params_path.display()))?;
    let csv_path = csv_path(dir);
    let text = fs::read_to_string(&csv_path)
        .with_context(|| format!("cannot read {}", csv_path.display()))?;
    // An unfinished last line is left out.
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let rows = parse_rows(&text[..whole])
        .with_context(|| format!("{} does not read as a study's", csv_path.display()))?;
    Ok((params, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_round_trip() {
        let fields = ["1", "D4,E5 pass", "a \"quote\"", "", "x"];
        let line = csv_line(&fields);
        assert_eq!(line, "1,\"D4,E5 pass\",\"a \"\"quote\"\"\",,x\n");
        assert_eq!(split_csv(line.trim_end()).unwrap(), fields);
        assert!(split_csv("\"open").is_err());
    }

    #[test]
    fn params_round_trip_and_differ() {
        let params = Params {
            variant: Variant::Hexsygo,
            size: 5,
            balance: false,
            player: "uct:visits=100".into(),
            visits: None,
            opening_turns: 2,
            seed: 9,
        };
        assert_eq!(Params::parse(&params.to_text()).unwrap(), params);
        let other = Params {
            seed: 10,
            ..params.clone()
        };
        assert_eq!(params.differences(&other), ["seed 10 (asked: 9)"]);
    }
}
