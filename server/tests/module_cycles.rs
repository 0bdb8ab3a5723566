//! No cycles between the server's top-level modules: every `crate::x…`
//! reference (and `super::x` that reaches the crate root) in `src/<m>.rs` or
//! `src/<m>/…` is an edge m → x; the test fails, naming each strongly
//! connected set, if any module reaches itself. Comments do not count (doc
//! links name modules they do not use); the crate root (`lib.rs`,
//! `main.rs`) is not a module here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to and its depth below the crate root
/// (`hub.rs`, `hub/mod.rs`: 1; `hub/entry.rs`: 2), or None for the root.
fn module_of(src: &Path, file: &Path) -> Option<(String, usize)> {
    let relative = file.strip_prefix(src).ok()?;
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let top = parts.first()?.trim_end_matches(".rs").to_string();
    if parts.len() == 1 && (top == "lib" || top == "main") {
        return None;
    }
    let last = parts.last()?;
    let depth = if last == "mod.rs" {
        parts.len() - 1
    } else {
        parts.len()
    };
    Some((top, depth))
}

fn ident_at(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The first path segments of a use group `{a::b, c, d::{e, f}}` (after its
/// opening brace).
fn group_heads(text: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut at_item = true;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_item = true,
            c if at_item && (c.is_alphanumeric() || c == '_') => {
                heads.push(ident_at(&text[i..]));
                at_item = false;
            }
            _ => {}
        }
    }
    heads
}

/// The top-level modules a file's code names.
fn references(code: &str, depth: usize) -> Vec<String> {
    let mut names = Vec::new();
    let root_super = "super::".repeat(depth);
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    for prefix in ["crate::".to_string(), root_super] {
        let mut from = 0;
        while let Some(found) = code[from..].find(&prefix) {
            let at = from + found;
            let before = code[..at].chars().last();
            let after = &code[at + prefix.len()..];
            from = at + prefix.len();
            // `super::super::x` found at its second `super::` is not a root path.
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            if let Some(group) = after.strip_prefix('{') {
                names.extend(group_heads(group));
            } else {
                let name = ident_at(after);
                let path = !name.is_empty() && after[name.len()..].starts_with("::");
                if path && name != "super" {
                    names.push(name);
                }
            }
        }
    }
    names
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_of(&src, f).map(|(m, _)| m))
        .collect();
    let mut graph = Graph::new();
    for file in &files {
        let Some((module, depth)) = module_of(&src, file) else {
            continue;
        };
        let code = std::fs::read_to_string(file).expect("read source");
        let edges = graph.entry(module.clone()).or_default();
        for name in references(&code, depth) {
            if name != module && modules.contains(&name) {
                edges.insert(name);
            }
        }
    }
    graph
}

/// Tarjan's strongly connected components with more than one module.
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut set = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                set.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                set.sort();
                s.found.push(set);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.found
}

#[test]
fn the_reader_finds_every_form_of_reference() {
    let code = "use crate::{hub::Hub, store::{Store, on_db}, ws};\n\
                // crate::commented::Out\n\
                fn f() { crate::ratings::pools(); super::limits::X; super::super::no::Y }\n";
    let mut names = references(code, 1);
    names.sort();
    assert_eq!(names, ["hub", "limits", "ratings", "store", "ws"]);
}

#[test]
fn no_module_cycles() {
    let graph = graph();
    assert!(graph.contains_key("hub") && graph.contains_key("store"));
    let found = cycles(&graph);
    let described: Vec<String> = found
        .iter()
        .map(|set| {
            let edges: Vec<String> = set
                .iter()
                .flat_map(|m| {
                    graph[m]
                        .iter()
                        .filter(|t| set.contains(t))
                        .map(move |t| format!("{m} → {t}"))
                })
                .collect();
            format!("{{{}}}: {}", set.join(", "), edges.join(", "))
        })
        .collect();
    assert!(
        found.is_empty(),
        "module cycles in server/src:\n{}",
        described.join("\n")
    );
}
