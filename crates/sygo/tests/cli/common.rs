//! What several of the command line's test files share.

use std::io::{BufRead, BufReader};
use std::process::Child;
use std::sync::mpsc;
use std::time::Duration;

/// The longest a started program may take to print its first line (a
/// server opening its database on a loaded machine).
const FIRST_LINE: Duration = Duration::from_secs(60);

/// The first line the child prints on its standard output (which it takes
/// from `child`), or a failure that says so if none comes in time.
pub fn first_line(child: &mut Child) -> String {
    let stdout = child.stdout.take().expect("the child's output is piped");
    let (tell, told) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let read = BufReader::new(stdout).read_line(&mut line);
        let _ = tell.send(read.map(|_| line));
    });
    match told.recv_timeout(FIRST_LINE) {
        Ok(Ok(line)) => line,
        Ok(Err(e)) => panic!("the program's first line does not read: {e}"),
        Err(_) => {
            let _ = child.kill();
            panic!("the program printed no line in {FIRST_LINE:?}")
        }
    }
}
