//! Content-hashed file names for the site's static files.
//!
//! Every file under the given folders (`pkg/`, `vendor/`, `style/`) with an
//! extension is renamed `<stem>.<hash>.<ext>`, where the hash is the first 16 hex
//! digits of the SHA-256 of its content *after* its own references to other
//! files were rewritten to their hashed names (a file that imports a changed
//! file changes too). References are found by name: a text file (`.js`,
//! `.css`, `.json`) that mentions another file of its folder by its full name,
//! between non-name characters (`'./engine.js'`, `"frontend.wasm"`), refers to
//! it. Files that refer to each other in a cycle (wasm-bindgen's glue and
//! wasm-split's loader import each other) share one hash, taken over all of
//! them; so do wasm-split's chunks (`chunk_*.wasm`, `split_*.wasm`), tied
//! into one such group, since the loader every page loads names them all.
//! Files without an extension (`LICENSE`) keep their name.
//!
//! The result is a manifest from the served path (`/pkg/frontend.js`) to the
//! hashed one (`/pkg/frontend.0123456789abcdef.js`); the server reads it at
//! start (`site/manifest.json`) so that pages name the hashed files, which are
//! served as immutable. The unhashed originals are removed: an old name is a 404.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

type Result<T = ()> = std::result::Result<T, String>;

/// Hex digits of the hash in a file name.
pub const HASH_LEN: usize = 16;

/// One folder's files, at any depth: path relative to the folder (`/`
/// separators) → content.
type Folder = BTreeMap<String, Vec<u8>>;

/// The folder part of a relative path (`""` at the top).
fn dir_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// How a file in `from_dir` names `to` (both relative to the same folder):
/// its path below `from_dir` (`snippets/x/inline0.js` from the top, `engine.js`
/// next to it); `None` when `to` is not below `from_dir`.
fn reference(from_dir: &str, to: &str) -> Option<String> {
    if from_dir.is_empty() {
        return Some(to.to_string());
    }
    to.strip_prefix(from_dir)
        .and_then(|rest| rest.strip_prefix('/'))
        .map(str::to_string)
}

/// `path` with its file name hashed (the folders keep their names).
fn hashed_path(path: &str, hash: &str) -> Option<String> {
    match path.rsplit_once('/') {
        Some((dir, name)) => hashed_name(name, hash).map(|n| format!("{dir}/{n}")),
        None => hashed_name(path, hash),
    }
}

/// Whether `name` (relative to its folder) is one of wasm-split's chunks:
/// `chunk_<n>.wasm` (shared code) or `split_<function>.wasm` (a lazy
/// function's own), at the top of the folder.
fn is_wasm_chunk(name: &str) -> bool {
    !name.contains('/')
        && name.ends_with(".wasm")
        && (name.starts_with("chunk_") || name.starts_with("split_"))
}

/// Whether `name` may mention other files.
fn is_text(name: &str) -> bool {
    [".js", ".mjs", ".css", ".json"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// A character that can be part of a file name.
fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

/// Byte offsets where `name` occurs in `text` as a whole file name.
fn occurrences(text: &[u8], name: &str) -> Vec<usize> {
    let needle = name.as_bytes();
    let mut found = Vec::new();
    if needle.is_empty() || text.len() < needle.len() {
        return found;
    }
    for at in 0..=text.len() - needle.len() {
        if &text[at..at + needle.len()] != needle {
            continue;
        }
        let before_ok = at == 0 || !is_name_char(text[at - 1]);
        let after = at + needle.len();
        // A dot after the name continues it unless nothing name-like follows
        // (`'a.js'.` is still a reference; `a.js.map` is not).
        let after_ok = after == text.len()
            || !is_name_char(text[after])
            || (text[after] == b'.' && text.get(after + 1).is_none_or(|c| !is_name_char(*c)));
        if before_ok && after_ok {
            found.push(at);
        }
    }
    found
}

/// Whether the name ending at `end` is a quoted object key (`"x.js": import1`):
/// wasm-bindgen's glue keys the wasm's imports by module name, which is in the
/// wasm binary and must stay as it is (the `import` statements carry the URL).
fn is_object_key(text: &[u8], end: usize) -> bool {
    if !matches!(text.get(end), Some(b'"' | b'\'')) {
        return false;
    }
    text[end + 1..]
        .iter()
        .find(|c| !c.is_ascii_whitespace())
        .is_some_and(|c| *c == b':')
}

/// `text` with every whole-name occurrence of `from` replaced by `to`, except
/// where it is an object key (see [`is_object_key`]).
fn replace_name(text: &[u8], from: &str, to: &str) -> Vec<u8> {
    let hits: Vec<usize> = occurrences(text, from)
        .into_iter()
        .filter(|at| !is_object_key(text, at + from.len()))
        .collect();
    if hits.is_empty() {
        return text.to_vec();
    }
    let mut out = Vec::with_capacity(text.len() + hits.len() * (to.len() + 1));
    let mut last = 0;
    for at in hits {
        out.extend_from_slice(&text[last..at]);
        out.extend_from_slice(to.as_bytes());
        last = at + from.len();
    }
    out.extend_from_slice(&text[last..]);
    out
}

/// `stem.<hash>.ext`: the stem is the name up to its first dot, the extension
/// after its last (`__wasm_split.____.js` → `__wasm_split.<hash>.js`).
pub fn hashed_name(name: &str, hash: &str) -> Option<String> {
    let (stem, _) = name.split_once('.')?;
    let (_, ext) = name.rsplit_once('.')?;
    Some(format!("{stem}.{hash}.{ext}"))
}

/// The hash of one file's content, as it appears in a hashed name.
pub fn content_hash(data: &[u8]) -> String {
    digest(&[data])
}

fn digest(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()[..HASH_LEN]
        .to_string()
}

/// Hashes one folder's files in memory: returns the renamed files
/// (old path → (new path, new content)).
fn hash_folder(files: &Folder) -> BTreeMap<String, (String, Vec<u8>)> {
    let names: Vec<&String> = files.keys().collect();
    // Only files whose name has an extension are renamed (and referred to).
    let hashable: Vec<bool> = names
        .iter()
        .map(|n| n.rsplit('/').next().is_some_and(|f| f.contains('.')))
        .collect();
    // Who refers to whom, and by which string.
    let refs: Vec<Vec<(usize, String)>> = names
        .iter()
        .map(|name| {
            if !is_text(name) {
                return Vec::new();
            }
            let text = &files[*name];
            names
                .iter()
                .enumerate()
                .filter(|(j, other)| hashable[*j] && *other != name)
                .filter_map(|(j, other)| {
                    let by = reference(dir_of(name), other)?;
                    (!occurrences(text, &by).is_empty()).then_some((j, by))
                })
                .collect()
        })
        .collect();
    let mut edges: Vec<Vec<usize>> = refs
        .iter()
        .map(|r| r.iter().map(|(j, _)| *j).collect())
        .collect();
    // wasm-split's chunks share one hash: tied into one cycle, they are one
    // component. The split loader names every chunk, and ~190 names with a
    // hash each were ~1.5 KB of brotli on every page; one hash repeated
    // compresses to nothing. A deploy that changes one chunk renames them
    // all, which costs nothing the service worker did not already do (a new
    // deploy's worker fetches every file again).
    let chunks: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(i, name)| hashable[*i] && is_wasm_chunk(name))
        .map(|(i, _)| i)
        .collect();
    for (k, &i) in chunks.iter().enumerate() {
        if chunks.len() > 1 {
            edges[i].push(chunks[(k + 1) % chunks.len()]);
        }
    }
    // Strongly connected components, dependencies first (Tarjan's order).
    let components = tarjan(&edges);
    let mut renamed: BTreeMap<String, (String, Vec<u8>)> = BTreeMap::new();
    // The string a file in `from_dir` uses for the renamed `new_path`.
    let new_reference =
        |from_dir: &str, new_path: &str| reference(from_dir, new_path).unwrap_or_default();
    for component in components {
        let members: Vec<usize> = component.into_iter().filter(|&i| hashable[i]).collect();
        if members.is_empty() {
            continue;
        }
        // Rewrite references to files outside the component (already hashed).
        let mut contents: Vec<Vec<u8>> = members
            .iter()
            .map(|&i| {
                let mut text = files[names[i]].clone();
                for (j, by) in &refs[i] {
                    if members.contains(j) {
                        continue;
                    }
                    if let Some((new_path, _)) = renamed.get(names[*j].as_str()) {
                        text = replace_name(&text, by, &new_reference(dir_of(names[i]), new_path));
                    }
                }
                text
            })
            .collect();
        let parts: Vec<&[u8]> = contents.iter().map(Vec::as_slice).collect();
        let hash = digest(&parts);
        let new_paths: Vec<String> = members
            .iter()
            .map(|&i| hashed_path(names[i], &hash).unwrap_or_else(|| names[i].clone()))
            .collect();
        // Then references inside the component (a cycle), to the shared hash.
        for (k, &i) in members.iter().enumerate() {
            for (j, by) in &refs[i] {
                if let Some(l) = members.iter().position(|m| m == j) {
                    contents[k] = replace_name(
                        &contents[k],
                        by,
                        &new_reference(dir_of(names[i]), &new_paths[l]),
                    );
                }
            }
        }
        for ((&i, new_path), content) in members.iter().zip(new_paths).zip(contents) {
            renamed.insert(names[i].clone(), (new_path, content));
        }
    }
    renamed
}

/// Tarjan's strongly connected components of `edges` (i → what i refers to),
/// each component after every component it refers to.
fn tarjan(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        edges: &'a [Vec<usize>],
        next: usize,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.edges[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort_unstable();
            s.out.push(component);
        }
    }
    let n = edges.len();
    let mut s = State {
        edges,
        next: 0,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// Renames the files under `site/<folder>` (at any depth) to their hashed
/// names, removes the originals, and returns the manifest:
/// `/<folder>/<path>` → `/<folder>/<hashed path>`.
pub fn hash_site(site: &Path, folders: &[&str]) -> Result<BTreeMap<String, String>> {
    let mut manifest = BTreeMap::new();
    for folder in folders {
        let top = site.join(folder);
        let mut files = Folder::new();
        for path in files_under(&top)? {
            let relative = path
                .strip_prefix(&top)
                .map_err(|e| e.to_string())?
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            let data = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.insert(relative, data);
        }
        for (old, (new, content)) in hash_folder(&files) {
            fs::write(top.join(&new), content).map_err(|e| format!("{new}: {e}"))?;
            if new != old {
                fs::remove_file(top.join(&old)).map_err(|e| format!("{old}: {e}"))?;
            }
            manifest.insert(format!("/{folder}/{old}"), format!("/{folder}/{new}"));
        }
    }
    Ok(manifest)
}

/// Every file under `dir`.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut folders = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.is_file() {
                files.push(path);
            }
        }
    }
    Ok(files)
}

/// The manifest as JSON (one `"from": "to"` pair a line, sorted).
pub fn manifest_json(manifest: &BTreeMap<String, String>) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let lines: Vec<String> = manifest
        .iter()
        .map(|(from, to)| format!("  {}: {}", quote(from), quote(to)))
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> Folder {
        files
            .iter()
            .map(|(n, c)| (n.to_string(), c.as_bytes().to_vec()))
            .collect()
    }

    fn text(out: &BTreeMap<String, (String, Vec<u8>)>, name: &str) -> (String, String) {
        let (new, content) = &out[name];
        (new.clone(), String::from_utf8(content.clone()).unwrap())
    }

    #[test]
    fn names_are_matched_whole() {
        let t = b"import x from './engine.js'; fetch('my-engine.js'); 'engine.js.map' engine.jsx";
        assert_eq!(occurrences(t, "engine.js"), vec![17]);
        assert_eq!(
            replace_name(t, "engine.js", "engine.abc.js"),
            b"import x from './engine.abc.js'; fetch('my-engine.js'); 'engine.js.map' engine.jsx"
                .to_vec()
        );
        assert_eq!(
            hashed_name("__wasm_split.______.js", "h").as_deref(),
            Some("__wasm_split.h.js")
        );
        assert_eq!(hashed_name("LICENSE", "h"), None);
    }

    #[test]
    fn a_change_in_a_dependency_changes_its_importers_names() {
        let files = folder(&[
            ("engine_bg.wasm", "\0asm v1"),
            ("engine.js", "new URL('engine_bg.wasm', import.meta.url)"),
            ("engine-worker.js", "import init from './engine.js';"),
            ("LICENSE", "MIT"),
        ]);
        let out = hash_folder(&files);
        let (wasm, _) = text(&out, "engine_bg.wasm");
        let (glue, glue_text) = text(&out, "engine.js");
        let (worker, worker_text) = text(&out, "engine-worker.js");
        assert!(
            wasm.starts_with("engine_bg.")
                && wasm.ends_with(".wasm")
                && wasm.len() == "engine_bg.".len() + HASH_LEN + ".wasm".len()
        );
        assert_eq!(glue_text, format!("new URL('{wasm}', import.meta.url)"));
        assert_eq!(worker_text, format!("import init from './{glue}';"));
        assert!(!out.contains_key("LICENSE"));

        // Only the wasm changes: every file that leads to it gets a new name.
        let mut changed = files.clone();
        changed.insert("engine_bg.wasm".into(), b"\0asm v2".to_vec());
        let again = hash_folder(&changed);
        assert_ne!(again["engine_bg.wasm"].0, wasm);
        assert_ne!(again["engine.js"].0, glue);
        assert_ne!(again["engine-worker.js"].0, worker);
        // The same content gives the same names.
        assert_eq!(hash_folder(&files), out);
    }

    #[test]
    fn files_that_import_each_other_share_a_hash() {
        let files = folder(&[
            (
                "frontend.js",
                "import * as s from './__wasm_split.____.js'; 'frontend.wasm'",
            ),
            (
                "__wasm_split.____.js",
                "import { x } from './frontend.js'; fetch('./lab.wasm')",
            ),
            ("frontend.wasm", "main"),
            ("lab.wasm", "lab"),
        ]);
        let out = hash_folder(&files);
        let (main_js, main_text) = text(&out, "frontend.js");
        let (split_js, split_text) = text(&out, "__wasm_split.____.js");
        let (main_wasm, _) = text(&out, "frontend.wasm");
        let (lab, _) = text(&out, "lab.wasm");
        let hash = &main_js["frontend.".len().."frontend.".len() + HASH_LEN];
        assert_eq!(split_js, format!("__wasm_split.{hash}.js"));
        assert_eq!(
            main_text,
            format!("import * as s from './{split_js}'; '{main_wasm}'")
        );
        assert_eq!(
            split_text,
            format!("import {{ x }} from './{main_js}'; fetch('./{lab}')")
        );
        let mut changed = files.clone();
        changed.insert("lab.wasm".into(), b"lab 2".to_vec());
        let again = hash_folder(&changed);
        assert_ne!(again["frontend.js"].0, main_js);
        assert_eq!(again["frontend.wasm"].0, main_wasm);
    }

    #[test]
    fn wasm_split_chunks_share_one_hash_that_changes_with_any_of_them() {
        let files = [
            ("chunk_1.wasm", "\0asm one"),
            ("chunk_2.wasm", "\0asm two"),
            ("split_lazy_page_7.wasm", "\0asm page"),
            ("frontend.wasm", "\0asm main"),
            (
                "loader.js",
                "fetch('./chunk_1.wasm');fetch('./chunk_2.wasm');fetch('./split_lazy_page_7.wasm')",
            ),
        ];
        let out = hash_folder(&folder(&files));
        let hash_of = |out: &BTreeMap<String, (String, Vec<u8>)>, name: &str| {
            let new = &out[name].0;
            new.rsplit('.').nth(1).unwrap().to_string()
        };
        let shared = hash_of(&out, "chunk_1.wasm");
        assert_eq!(hash_of(&out, "chunk_2.wasm"), shared);
        assert_eq!(hash_of(&out, "split_lazy_page_7.wasm"), shared);
        // The main module and the loader are named by their own content.
        assert_ne!(hash_of(&out, "frontend.wasm"), shared);
        let loader = String::from_utf8(out["loader.js"].1.clone()).unwrap();
        assert!(
            loader.contains(&format!("./chunk_2.{shared}.wasm")),
            "{loader}"
        );
        // One chunk changes: every chunk's name changes, the main module's not.
        let mut changed = files;
        changed[1].1 = "\0asm two, changed";
        let again = hash_folder(&folder(&changed));
        let new_shared = hash_of(&again, "chunk_1.wasm");
        assert_ne!(new_shared, shared);
        assert_eq!(hash_of(&again, "split_lazy_page_7.wasm"), new_shared);
        assert_eq!(
            hash_of(&again, "frontend.wasm"),
            hash_of(&out, "frontend.wasm")
        );
    }

    #[test]
    fn files_in_subfolders_are_named_by_their_path() {
        let files = folder(&[
            (
                "frontend.js",
                "import { a } from './snippets/frontend-1a/inline0.js';\nimports = { './snippets/frontend-1a/inline0.js': a };",
            ),
            ("snippets/frontend-1a/inline0.js", "export const a = 1;"),
        ]);
        let out = hash_folder(&files);
        let (snippet, _) = text(&out, "snippets/frontend-1a/inline0.js");
        assert!(
            snippet.starts_with("snippets/frontend-1a/inline0."),
            "{snippet}"
        );
        let (_, glue) = text(&out, "frontend.js");
        assert_eq!(
            glue,
            format!(
                "import {{ a }} from './{snippet}';\nimports = {{ './snippets/frontend-1a/inline0.js': a }};"
            )
        );
    }

    #[test]
    fn a_site_is_renamed_on_disk_with_a_manifest() {
        let site = std::env::temp_dir().join(format!("xtask-hash-{}", std::process::id()));
        let _ = fs::remove_dir_all(&site);
        fs::create_dir_all(site.join("style")).unwrap();
        fs::create_dir_all(site.join("vendor/three")).unwrap();
        fs::write(site.join("style/main.css"), "body{}").unwrap();
        fs::write(site.join("vendor/three/three.bundle.js"), "export{}").unwrap();
        fs::write(site.join("vendor/three/LICENSE"), "MIT").unwrap();
        let manifest = hash_site(&site, &["style", "vendor"]).unwrap();
        let css = &manifest["/style/main.css"];
        assert!(
            css.starts_with("/style/main.") && css.ends_with(".css"),
            "{css}"
        );
        assert!(site.join(css.trim_start_matches('/')).exists());
        assert!(!site.join("style/main.css").exists());
        let three = &manifest["/vendor/three/three.bundle.js"];
        assert!(three.starts_with("/vendor/three/three."), "{three}");
        assert!(site.join("vendor/three/LICENSE").exists());
        let json = manifest_json(&manifest);
        assert!(
            json.contains(&format!("\"/style/main.css\": \"{css}\"")),
            "{json}"
        );
        fs::remove_dir_all(&site).unwrap();
    }
}
