//! Colour on the terminal: whether to use it (`--color`, `NO_COLOR`,
//! `TERM`), and ANSI Select Graphic Rendition codes for the pieces of a
//! board. Colour is only emphasis: every drawing reads the same without it.

use std::io::IsTerminal;

use sygo_rules::Color;

/// When to colour the output (`--color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ColorChoice {
    /// Colour only if standard output is a terminal, `NO_COLOR` is unset (or
    /// empty) and `TERM` is not `dumb`.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour: plain letters.
    Never,
}

impl ColorChoice {
    /// Whether to colour standard output.
    pub fn resolve(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                let dumb = std::env::var_os("TERM").is_some_and(|v| v == "dumb");
                !no_color && !dumb && std::io::stdout().is_terminal()
            }
        }
    }
}

/// ANSI Select Graphic Rendition codes, and whether to use them.
#[derive(Clone, Copy, Debug)]
pub struct Paint {
    /// Whether escape codes are written at all.
    pub color: bool,
}

/// The looks of the board's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ink {
    Plain,
    /// Labels, vacant points, minor marks.
    Faint,
    Stone(Color),
    /// A stone of the turn in progress.
    Pending(Color),
    Territory(Color),
    /// `*` and `~`.
    Alert,
    /// `+`: a group that may still grow.
    Go,
}

impl Ink {
    fn sgr(self) -> &'static str {
        match self {
            Ink::Plain => "",
            Ink::Faint => "2",
            Ink::Stone(Color::Black) => "1;34",
            Ink::Stone(Color::White) => "1;31",
            Ink::Pending(Color::Black) => "1;4;34",
            Ink::Pending(Color::White) => "1;4;31",
            Ink::Territory(Color::Black) => "34",
            Ink::Territory(Color::White) => "31",
            Ink::Alert => "1;35",
            Ink::Go => "1;32",
        }
    }
}

impl Paint {
    /// Appends `text` in `ink`.
    pub(crate) fn put(self, out: &mut String, text: &str, ink: Ink) {
        let sgr = ink.sgr();
        if self.color && !sgr.is_empty() {
            out.push_str("\x1b[");
            out.push_str(sgr);
            out.push('m');
            out.push_str(text);
            out.push_str("\x1b[0m");
        } else {
            out.push_str(text);
        }
    }

    /// `text` in bold (for headings and results).
    pub fn bold(self, text: &str) -> String {
        if self.color {
            format!("\x1b[1m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}
