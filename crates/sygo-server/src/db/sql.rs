//! What the two stores have in common: statements with numbered
//! parameters (`?1`, `?2`, …), values to bind, rows to read. The
//! statements of [`super::statements`] are written once in the SQL that
//! SQLite and PostgreSQL both take, and run through [`Sql`] on either.

use std::fmt;

use super::TurnRow;

/// A value bound to a statement's parameter. Integers are 64-bit on both
/// stores (`INTEGER` in SQLite, `BIGINT` in PostgreSQL), as are flags
/// (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
}

/// A column's value read from a row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// A row read: its columns in the order of the statement's `SELECT`.
#[derive(Debug)]
pub(crate) struct Row(pub(crate) Vec<Cell>);

impl Row {
    /// The `i`-th column as a `T`; an error naming the column if it holds
    /// something else.
    pub(crate) fn get<T: FromCell>(&self, i: usize) -> Result<T, SqlError> {
        let cell = self.0.get(i).unwrap_or(&Cell::Null);
        T::from_cell(cell)
            .ok_or_else(|| SqlError::Failed(format!("column {i} holds an unexpected {cell:?}")))
    }
}

/// Why a statement failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SqlError {
    /// A primary key or unique column already holds that value.
    Duplicate(String),
    /// Anything else; the store's reason.
    Failed(String),
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqlError::Duplicate(why) | SqlError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SqlError {}

/// A connection to one of the stores.
pub(crate) trait Sql {
    /// Runs a statement without parameters or rows (`BEGIN`, `SAVEPOINT
    /// write`, …).
    fn run(&mut self, sql: &str) -> Result<(), SqlError>;

    /// Runs a statement; the number of rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value<'_>]) -> Result<u64, SqlError>;

    /// Runs a query; every row it returns.
    fn query(&mut self, sql: &str, params: &[Value<'_>]) -> Result<Vec<Row>, SqlError>;

    /// Stores turns with one statement, if the store has one: each only if
    /// its game's count of undos is still the one it was played on, and
    /// its number is not stored yet; whether each was stored, in order. No
    /// turn is given twice. `None` (here): the caller stores them one
    /// statement a turn. PostgreSQL has one.
    fn insert_turns_at_once(&mut self, _turns: &[&TurnRow]) -> Option<Result<Vec<bool>, SqlError>> {
        None
    }

    /// Whether the store locks rows (`SELECT … FOR UPDATE SKIP LOCKED`):
    /// PostgreSQL does; SQLite, whose one writer holds the whole file, has
    /// no such clause.
    fn locks_rows(&self) -> bool {
        false
    }
}

/// What can be bound to a parameter.
pub(crate) trait ToValue {
    fn to_value(&self) -> Value<'_>;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value<'_> {
        (**self).to_value()
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self)
    }
}

impl ToValue for i64 {
    fn to_value(&self) -> Value<'_> {
        Value::Int(*self)
    }
}

impl ToValue for u32 {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for u8 {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value<'_> {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value<'_> {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

/// The parameters of a statement: `vals![a, b, c]`.
macro_rules! vals {
    ($($x:expr),* $(,)?) => {
        &[$($crate::db::sql::ToValue::to_value(&$x)),*][..]
    };
}
pub(crate) use vals;

/// What a column can be read as.
pub(crate) trait FromCell: Sized {
    fn from_cell(cell: &Cell) -> Option<Self>;
}

impl FromCell for i64 {
    fn from_cell(cell: &Cell) -> Option<i64> {
        match cell {
            Cell::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl FromCell for u32 {
    fn from_cell(cell: &Cell) -> Option<u32> {
        i64::from_cell(cell).and_then(|i| u32::try_from(i).ok())
    }
}

impl FromCell for u8 {
    fn from_cell(cell: &Cell) -> Option<u8> {
        i64::from_cell(cell).and_then(|i| u8::try_from(i).ok())
    }
}

/// A flag: any integer but 0 is set.
impl FromCell for bool {
    fn from_cell(cell: &Cell) -> Option<bool> {
        i64::from_cell(cell).map(|i| i != 0)
    }
}

impl FromCell for f64 {
    fn from_cell(cell: &Cell) -> Option<f64> {
        match cell {
            Cell::Real(x) => Some(*x),
            // SQLite keeps a whole REAL as an integer where it can.
            #[allow(clippy::cast_precision_loss)]
            Cell::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromCell for String {
    fn from_cell(cell: &Cell) -> Option<String> {
        match cell {
            Cell::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl<T: FromCell> FromCell for Option<T> {
    fn from_cell(cell: &Cell) -> Option<Option<T>> {
        match cell {
            Cell::Null => Some(None),
            cell => T::from_cell(cell).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_cells_convert_as_the_columns_hold_them() {
        let name = String::from("Ann");
        let none: Option<i64> = None;
        let bound = vals![name, 7u32, true, 0.5, none, Some(3i64), "x"];
        assert_eq!(
            bound,
            [
                Value::Text("Ann"),
                Value::Int(7),
                Value::Int(1),
                Value::Real(0.5),
                Value::Null,
                Value::Int(3),
                Value::Text("x"),
            ]
        );
        let row = Row(vec![
            Cell::Int(300),
            Cell::Null,
            Cell::Int(2),
            Cell::Text("a".into()),
        ]);
        assert_eq!(row.get::<i64>(0), Ok(300));
        assert!(row.get::<u8>(0).is_err(), "300 is no u8");
        assert_eq!(row.get::<Option<String>>(1), Ok(None));
        assert!(row.get::<String>(1).is_err(), "NULL is no text");
        assert_eq!(row.get::<f64>(2), Ok(2.0));
        assert_eq!(row.get::<bool>(2), Ok(true));
        assert_eq!(row.get::<String>(3), Ok("a".to_string()));
        assert!(row.get::<i64>(9).is_err(), "no such column");
    }
}
