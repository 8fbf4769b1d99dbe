//! Arguments shared by several commands, read into values: a command's own
//! arguments are read in `commands.rs` or `analyze.rs`.

use crate::error::CommandError;
use crate::framing::quote;

/// `true` or `false`, case-insensitive.
pub(crate) fn parse_bool(text: &str) -> Result<bool, CommandError> {
    if text.eq_ignore_ascii_case("true") {
        Ok(true)
    } else if text.eq_ignore_ascii_case("false") {
        Ok(false)
    } else {
        Err(CommandError::Syntax(format!(
            "{} is not true or false",
            quote(text, 16)
        )))
    }
}
