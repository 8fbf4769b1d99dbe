//! Rebuilds the crate when a file of the embedded front end (`web/`) is
//! added, changed or removed.

fn main() {
    println!("cargo:rerun-if-changed=web");
}
