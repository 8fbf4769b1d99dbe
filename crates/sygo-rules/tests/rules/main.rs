//! The rules library's integration tests, one module a file, in one test
//! binary (`cargo test -p sygo-rules --test rules`), compiled and linked
//! once: the agreement with the reference implementation
//! (`reference/mod.rs`), turns completed and dangers found on drawn and
//! random positions (`diagram.rs`, `tight.rs`), properties, the designer's
//! examples (`seeds.rs`), the README's example. The memory test counts
//! every allocation of its process: it is a binary of its own
//! (`../memory.rs`).

#[allow(dead_code)]
mod diagram;
mod reference;
#[allow(dead_code)]
mod tight;

mod agreement;
mod completion;
mod danger;
mod properties;
mod readme;
mod seeds;
