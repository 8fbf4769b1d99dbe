//! NumPy arrays from Rust data, without a build-time dependency on NumPy:
//! the values are written into a `bytearray` and viewed by
//! `numpy.frombuffer` (writable, since a `bytearray` is), then reshaped.
//! NumPy is imported on first use.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyAny, PyByteArray, PyTuple};

/// A value type an array can hold, with NumPy's name for it.
pub(crate) trait Element: Copy {
    /// NumPy's dtype name (native byte order).
    const DTYPE: &'static str;
    /// The bytes of the value in native order.
    fn put(self, out: &mut Vec<u8>);
}

impl Element for f32 {
    const DTYPE: &'static str = "float32";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_ne_bytes());
    }
}

impl Element for f64 {
    const DTYPE: &'static str = "float64";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_ne_bytes());
    }
}

impl Element for i32 {
    const DTYPE: &'static str = "int32";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_ne_bytes());
    }
}

impl Element for i64 {
    const DTYPE: &'static str = "int64";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_ne_bytes());
    }
}

impl Element for i8 {
    const DTYPE: &'static str = "int8";
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_ne_bytes());
    }
}

impl Element for bool {
    const DTYPE: &'static str = "bool";
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
}

/// A NumPy array of `values` in the given shape (C order).
pub(crate) fn array<'py, T: Element>(
    py: Python<'py>,
    values: &[T],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let mut bytes = Vec::with_capacity(std::mem::size_of_val(values));
    for &v in values {
        v.put(&mut bytes);
    }
    from_bytes(py, &bytes, T::DTYPE, shape)
}

/// A NumPy array over a copy of `bytes`, read as `dtype`, in `shape`.
pub(crate) fn from_bytes<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let frombuffer = FROMBUFFER.import(py, "numpy", "frombuffer")?;
    let buffer = PyByteArray::new(py, bytes);
    frombuffer
        .call1((buffer, dtype))?
        .call_method1("reshape", (PyTuple::new(py, shape)?,))
}

/// The bytes of `f32` values, for [`from_bytes`] (the tensors are filled as
/// `f32` and handed over in one piece).
pub(crate) fn f32_bytes(values: &[f32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(values.len() * 4);
    for &v in values {
        v.put(&mut bytes);
    }
    bytes
}
