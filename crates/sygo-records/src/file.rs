//! Records in files: reading one whole, with the reasons a file is refused,
//! shared by the command line and the engine protocol's `loadsgf`.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::error::RecordError;
use crate::record::Record;

/// The largest file read as a record: 16 MiB, thousands of times a long game
/// with many variations; a larger file is refused without being read.
pub const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// Why a record file cannot be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The file cannot be opened or read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file is larger than [`MAX_RECORD_BYTES`].
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not UTF-8 text.
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// The text is not a legal record.
    Record {
        /// The file.
        path: PathBuf,
        /// Why.
        error: RecordError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, error } => {
                let path = path.display();
                match error.kind() {
                    io::ErrorKind::NotFound => write!(f, "{path}: no such file"),
                    io::ErrorKind::PermissionDenied => write!(f, "{path}: permission denied"),
                    io::ErrorKind::IsADirectory => write!(f, "{path}: a directory, not a file"),
                    _ => write!(f, "{path}: {error}"),
                }
            }
            LoadError::TooLarge { path } => write!(
                f,
                "{}: larger than {} MiB, too large to be a record",
                path.display(),
                MAX_RECORD_BYTES / (1024 * 1024)
            ),
            LoadError::NotText { path } => {
                write!(f, "{}: not UTF-8 text, so not a record", path.display())
            }
            LoadError::Record { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

/// The message already says what the system or the reader said: no source
/// is chained, so that it is not told twice.
impl std::error::Error for LoadError {}

impl Record {
    /// Reads a record from a file (UTF-8 text, at most
    /// [`MAX_RECORD_BYTES`]).
    ///
    /// # Errors
    ///
    /// [`LoadError`]: the file cannot be read, is too large or not text, or
    /// is not a legal record ([`Record::parse`]).
    pub fn read_file(path: impl AsRef<Path>) -> Result<Record, LoadError> {
        let path = path.as_ref();
        let io = |error| LoadError::Io {
            path: path.to_path_buf(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        if file.metadata().map_err(io)?.is_dir() {
            return Err(io(io::Error::from(io::ErrorKind::IsADirectory)));
        }
        let mut bytes = Vec::new();
        file.take(MAX_RECORD_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_RECORD_BYTES {
            return Err(LoadError::TooLarge {
                path: path.to_path_buf(),
            });
        }
        let text = String::from_utf8(bytes).map_err(|_| LoadError::NotText {
            path: path.to_path_buf(),
        })?;
        Record::parse(&text).map_err(|error| LoadError::Record {
            path: path.to_path_buf(),
            error,
        })
    }
}
