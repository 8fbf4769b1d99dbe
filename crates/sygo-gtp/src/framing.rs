//! GTP 2 framing: reading a line into a command, writing an answer.
//!
//! A line is cleaned as GTP 2 §2.5 says before it is read: every control
//! character other than tab and newline is removed, tabs become spaces, and
//! everything from a `#` on is a comment. What is left is
//! `[id] command_name [arguments]`, separated by spaces; a line with nothing
//! left is no command at all and gets no answer.
//!
//! An answer is `=id result` (success) or `?id message` (failure) followed by
//! an empty line. A result of several lines starts on the line after the `=`,
//! so that every line of it is whole.

/// The longest line the engine reads, in bytes (64 KiB: more than 20 times
/// the longest meaningful command, `setup` of every point of 25×25). A longer
/// line is answered with a failure and otherwise ignored.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One command line, read: its id, name and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// The id, exactly as written (digits only), if the line starts with one.
    /// It is kept as text so that an id of any length is echoed unchanged.
    pub id: Option<String>,
    /// The command name; empty when the line holds only an id.
    pub name: String,
    /// The arguments, in order.
    pub args: Vec<String>,
}

/// Cleans a line as GTP 2 §2.5 says: drops every ASCII control character
/// except tab, turns tabs into spaces, and cuts the comment that starts at
/// `#`. A newline ends the line: anything after one is ignored, and a
/// carriage return before it disappears like any control character.
///
/// # Examples
///
/// ```
/// use sygo_gtp::framing::clean_line;
/// assert_eq!(clean_line("1\tplay b D4 # opening\r\n"), "1 play b D4 ");
/// ```
pub fn clean_line(line: &str) -> String {
    let line = line.split('\n').next().unwrap_or_default();
    let code = line.split('#').next().unwrap_or_default();
    code.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_ascii_control() => None,
            c => Some(c),
        })
        .collect()
}

/// Reads one line of input: `None` for a line that holds no command (blank,
/// or only a comment), else its id, name and arguments.
///
/// An id is a first word made of ASCII digits only.
///
/// # Examples
///
/// ```
/// use sygo_gtp::framing::parse_line;
/// let command = parse_line("7 play white D5,F7").unwrap();
/// assert_eq!(command.id.as_deref(), Some("7"));
/// assert_eq!(command.name, "play");
/// assert_eq!(command.args, ["white", "D5,F7"]);
/// assert_eq!(parse_line("   # just a comment"), None);
/// ```
pub fn parse_line(line: &str) -> Option<CommandLine> {
    let cleaned = clean_line(line);
    let mut words = cleaned.split(' ').filter(|w| !w.is_empty()).peekable();
    let first = words.peek()?;
    let id = if first.bytes().all(|b| b.is_ascii_digit()) {
        words.next().map(str::to_string)
    } else {
        None
    };
    let name = words.next().unwrap_or_default().to_string();
    let args = words.map(str::to_string).collect();
    Some(CommandLine { id, name, args })
}

/// Writes a success answer: `=id result`, or for a result of several lines
/// `=id` and the result from the next line on; then an empty line.
///
/// Empty lines inside a result would end the answer early, so they are
/// written as a single space; trailing newlines are dropped.
///
/// # Examples
///
/// ```
/// use sygo_gtp::framing::success;
/// assert_eq!(success(Some("3"), "2"), "=3 2\n\n");
/// assert_eq!(success(None, ""), "=\n\n");
/// assert_eq!(success(None, "a\nb\n"), "=\na\nb\n\n");
/// ```
pub fn success(id: Option<&str>, result: &str) -> String {
    let mut out = String::from("=");
    out.push_str(id.unwrap_or(""));
    let result = result.trim_end_matches('\n');
    if result.contains('\n') {
        for line in result.split('\n') {
            out.push('\n');
            out.push_str(if line.is_empty() { " " } else { line });
        }
    } else if !result.is_empty() {
        out.push(' ');
        out.push_str(result);
    }
    out.push_str("\n\n");
    out
}

/// The first line of a streamed answer (`analyze`): `=id` and a newline.
/// Lines of the stream follow, none of them empty, then the empty line that
/// ends the answer.
///
/// # Examples
///
/// ```
/// use sygo_gtp::framing::stream_start;
/// assert_eq!(stream_start(Some("5")), "=5\n");
/// ```
pub fn stream_start(id: Option<&str>) -> String {
    format!("={}\n", id.unwrap_or(""))
}

/// Writes a failure answer: `?id message` and an empty line. The message is
/// kept on one line (newlines become spaces).
///
/// # Examples
///
/// ```
/// use sygo_gtp::framing::failure;
/// assert_eq!(failure(Some("4"), "unknown command"), "?4 unknown command\n\n");
/// ```
pub fn failure(id: Option<&str>, message: &str) -> String {
    let mut out = String::from("?");
    out.push_str(id.unwrap_or(""));
    let message = message.trim();
    if !message.is_empty() {
        out.push(' ');
        for c in message.chars() {
            out.push(if c == '\n' || c == '\r' { ' ' } else { c });
        }
    }
    out.push_str("\n\n");
    out
}

/// Quotes text for an error message, shortened to at most `max` characters
/// (with `…` when cut), so that a huge argument gives a short message.
pub(crate) fn quote(text: &str, max: usize) -> String {
    let mut short: String = text.chars().take(max).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    format!("{short:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_go_and_tabs_become_spaces() {
        assert_eq!(clean_line("pl\x01ay\tb\x7f D4\r\n"), "play b D4");
        assert_eq!(clean_line("\x00\x1b[2J"), "[2J");
        assert_eq!(clean_line("name\nquit"), "name");
    }

    #[test]
    fn comments_and_blank_lines_hold_no_command() {
        for line in [
            "",
            " ",
            "\t\t",
            "\n",
            "\r\n",
            "# comment",
            "  #",
            "\x00\x01",
        ] {
            assert_eq!(parse_line(line), None, "{line:?}");
        }
        let command = parse_line("name # the engine's name").unwrap();
        assert_eq!((command.id, command.name.as_str()), (None, "name"));
        assert!(command.args.is_empty());
    }

    #[test]
    fn ids_are_digits_and_are_kept_as_written() {
        let command = parse_line("  007   genmove\tb ").unwrap();
        assert_eq!(command.id.as_deref(), Some("007"));
        assert_eq!(command.name, "genmove");
        assert_eq!(command.args, ["b"]);
        let huge = "123456789012345678901234567890";
        assert_eq!(
            parse_line(&format!("{huge} name")).unwrap().id.as_deref(),
            Some(huge)
        );
        // A word with a non-digit is the command name, not an id.
        let command = parse_line("-1 name").unwrap();
        assert_eq!((command.id, command.name.as_str()), (None, "-1"));
        // An id alone is a command line with an empty name.
        let command = parse_line("12").unwrap();
        assert_eq!(
            (command.id.as_deref(), command.name.as_str()),
            (Some("12"), "")
        );
    }

    #[test]
    fn answers_end_with_an_empty_line() {
        assert_eq!(success(Some("1"), "true"), "=1 true\n\n");
        assert_eq!(success(None, "x\n\ny"), "=\nx\n \ny\n\n");
        assert_eq!(failure(None, "bad\nthing"), "? bad thing\n\n");
        assert_eq!(failure(Some("9"), ""), "?9\n\n");
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quote("abc", 5), "\"abc\"");
        assert_eq!(quote("abcdef", 3), "\"abc…\"");
    }
}
