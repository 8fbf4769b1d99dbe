//! `ARCHITECTURE.md` checked against the code, and the layering it promises:
//!
//! - every file it names in a crate's section exists in that crate;
//! - every type it names (`Position`, `Position::dangers`) is declared in
//!   the workspace, and every method it names on a type is a `fn` there;
//! - inside each crate, files import each other one way: no file reaches,
//!   through `crate::…` paths, a file that reaches it back (the module graph
//!   has no cycle), so that a reader can start at the bottom of a crate.
//!
//! The code is read as text: a name in a comment does not count as a use,
//! a name in a string does (rare enough, and on the safe side).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root")
}

/// Every file below `dir` with one of the `extensions`.
fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The text of a Rust file without its comments (line comments only: the
/// project writes no block comments).
fn code_of(path: &Path) -> String {
    strip_comments(&fs::read_to_string(path).expect("a source file"))
}

/// Rust code without its line comments.
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // Not inside a string on this line (an even number of quotes before).
            Some(i) if line[..i].matches('"').count() % 2 == 0 => &line[..i],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The backquoted words of a text.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The sections of ARCHITECTURE.md that describe a crate: the crate's
/// folder (`crates/sygo-rules`, `crates/sygo-server/web`) and the section.
fn crate_sections(text: &str) -> Vec<(String, String)> {
    let mut sections = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            sections.extend(current.take());
            if let Some(folder) = quoted(heading).first().filter(|q| q.starts_with("crates/")) {
                current = Some((folder.to_string(), String::new()));
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections.extend(current);
    sections
}

const FILE_EXTENSIONS: [&str; 7] = [".rs", ".js", ".css", ".html", ".json", ".sql", ".md"];

#[test]
fn every_file_named_in_a_crates_section_exists_in_that_crate() {
    let root = root();
    let text = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let sections = crate_sections(&text);
    assert!(sections.len() >= 7, "a section per crate and the front end");
    let mut missing = Vec::new();
    let mut checked = 0;
    for (folder, body) in &sections {
        let dir = root.join(folder);
        assert!(
            dir.is_dir(),
            "ARCHITECTURE.md has a section for {folder}, which is not there"
        );
        let present: Vec<String> = files(&dir, &["rs", "js", "css", "html", "json", "sql", "md"])
            .iter()
            .map(|p| {
                p.strip_prefix(&dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/")
            })
            .collect();
        // Other folders the section speaks of: `crates/sygo/tests/browser/`.
        let folders: Vec<PathBuf> = quoted(body)
            .into_iter()
            .filter(|q| q.starts_with("crates/") && q.ends_with('/'))
            .map(|q| root.join(q))
            .collect();
        for name in quoted(body) {
            // File names only: `play/session.rs`, `lessons.json`, `tests/api.rs`.
            if name.contains(' ') || !FILE_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
                continue;
            }
            let name = name.trim_start_matches("web/");
            checked += 1;
            let found = present
                .iter()
                .any(|p| p == name || p.ends_with(&format!("/{name}")))
                || root.join(name).is_file()
                || folders.iter().any(|f| f.join(name).is_file());
            if !found {
                missing.push(format!("{folder}: {name}"));
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} file names read: is the table format unchanged?"
    );
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names files that do not exist:\n{}",
        missing.join("\n")
    );
}

/// Whether a backquoted word is a type, or a type and a method: `Position`,
/// `Position::dangers`, `MctsPlayer::level`.
fn type_path(word: &str) -> Option<(&str, Option<&str>)> {
    let (ty, method) = match word.split_once("::") {
        Some((ty, method)) => (ty, Some(method)),
        None => (word, None),
    };
    let camel = ty.len() > 1
        && ty.starts_with(|c: char| c.is_ascii_uppercase())
        && ty.chars().all(|c| c.is_ascii_alphanumeric())
        && ty.chars().any(|c| c.is_ascii_lowercase());
    let method_ok = method.is_none_or(|m| {
        !m.is_empty()
            && m.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    });
    (camel && method_ok).then_some((ty, method))
}

#[test]
fn every_type_and_method_named_in_architecture_is_in_the_code() {
    let root = root();
    let text = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let code: String = files(&root.join("crates"), &["rs"])
        .iter()
        .map(|p| code_of(p))
        .collect::<Vec<_>>()
        .join("\n");
    let declares = |keyword: &str, name: &str| {
        code.match_indices(&format!("{keyword} {name}"))
            .any(|(i, m)| {
                code[i + m.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_')
            })
    };
    // The front end's words (`EventSource`, a class of the page) are
    // checked against its modules.
    let scripts: String = files(&root.join("crates"), &["js"])
        .iter()
        .map(|p| fs::read_to_string(p).unwrap())
        .collect();
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for word in quoted(&text) {
        let Some((ty, method)) = type_path(word) else {
            continue;
        };
        checked += 1;
        let is_type = ["struct", "enum", "trait", "type", "mod"]
            .iter()
            .any(|k| declares(k, ty))
            // A variant of an enum, such as `Turn::Pass`, or a re-export.
            || code.contains(&format!("{ty},"))
            || code.contains(&format!("{ty} {{"))
            || code.contains(&format!("{ty}("))
            || (method.is_none() && scripts.contains(ty));
        if !is_type {
            missing.insert(word.to_string());
            continue;
        }
        let method_missing = method.is_some_and(|method| {
            !declares("fn", method) && !code.contains(&format!("{ty}::{method}"))
        });
        if method_missing {
            missing.insert(word.to_string());
        }
    }
    assert!(checked > 50, "only {checked} names read");
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what the code does not have:\n{}",
        missing.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// A crate's modules (`games`, `api::turns`) and their code.
fn modules(src: &Path) -> BTreeMap<String, String> {
    files(src, &["rs"])
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            (parts.join("::"), code_of(&path))
        })
        .collect()
}

/// The modules a module's code reaches through `crate::` paths: for each
/// path, the longest prefix that is a module; none of its own ancestors
/// (reaching up to a parent's re-export is how a child names its siblings'
/// shared types, and is counted through the paths the parent itself uses).
fn imports(module: &str, code: &str, all: &BTreeMap<String, String>) -> BTreeSet<String> {
    let mut reached = BTreeSet::new();
    let mut paths: Vec<Vec<String>> = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        if code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a::X, b};`
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                paths.push(segments(item.trim()));
            }
        } else {
            paths.push(segments(rest));
        }
    }
    // `super::x` in a child names a sibling module.
    if let Some((parent, _)) = module.rsplit_once("::") {
        for (i, _) in code.match_indices("super::") {
            if code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut path: Vec<String> = parent.split("::").map(str::to_string).collect();
            path.extend(segments(&code[i + "super::".len()..]));
            paths.push(path);
        }
    }
    for path in paths {
        for k in (1..=path.len()).rev() {
            let candidate = path[..k].join("::");
            if all.contains_key(&candidate) {
                let ancestor = module == candidate || module.starts_with(&format!("{candidate}::"));
                if !ancestor {
                    reached.insert(candidate);
                }
                break;
            }
        }
    }
    reached
}

/// The module segments at the start of a path: `games::Entry` → `games`, `Entry`.
fn segments(path: &str) -> Vec<String> {
    path.split("::")
        .map(|s| {
            s.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .take_while(|s| !s.is_empty())
        .collect()
}

/// The groups of modules that reach each other (Tarjan's strongly connected
/// components), the ones of more than one module.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in &self.graph[v] {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    group.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

#[test]
fn the_finder_of_circles_finds_one() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(str::to_string).collect()))
    .collect();
    assert_eq!(circles(&graph), vec![vec!["a", "b", "c"]]);
    let all: BTreeMap<String, String> = ["games", "view", "api", "api::turns"]
        .into_iter()
        .map(|m| (m.to_string(), String::new()))
        .collect();
    let code =
        "use crate::{games::Entry, view};\nfn f() { crate::api::turns::x(); super::view::y() }";
    assert_eq!(
        imports("api::turns", code, &all),
        ["games", "view"].into_iter().map(str::to_string).collect()
    );
    assert_eq!(
        imports(
            "games",
            &strip_comments("// crate::view::x is a comment"),
            &all
        ),
        BTreeSet::new()
    );
}

#[test]
fn inside_each_crate_files_import_each_other_one_way() {
    let root = root();
    let mut found = Vec::new();
    for krate in fs::read_dir(root.join("crates")).unwrap().flatten() {
        let src = krate.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let all = modules(&src);
        let mut graph: BTreeMap<String, BTreeSet<String>> = all
            .iter()
            .map(|(module, code)| (module.clone(), imports(module, code, &all)))
            .collect();
        // The crate root re-exports and declares: it is everyone's parent.
        graph.remove("");
        for edges in graph.values_mut() {
            edges.remove("");
        }
        for circle in circles(&graph) {
            found.push(format!(
                "{}: {}",
                krate.file_name().to_string_lossy(),
                circle.join(", ")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "files that import each other in circles (move what both need below both):\n{}",
        found.join("\n")
    );
}
