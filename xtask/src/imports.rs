//! Short names for the app's wasm imports.
//!
//! wasm-bindgen names each function the main module imports from its glue
//! `__wbg_<name>_<16 hex digits>` (`__wbg_set_visible_f28f09dacc45ec4a`), and
//! the name is written twice: in the module's import section and as a key of
//! the glue's import object. The ~330 hashes are random digits brotli cannot
//! shrink, in both files, on every page. [`shorten`] renames each import of
//! the glue's module to a one- or two-letter name in both places, after
//! `wasm-opt` and before the glue is minified and the files are hashed.
//!
//! An import is renamed only where that is certain to be safe: its module is
//! the glue's (`./frontend_bg.js`), no export has the same name, and the glue
//! names it exactly once, as a whole word (its key). Anything else keeps its
//! name, so a future wasm-bindgen that writes its glue differently loses the
//! saving, not the page.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

type Result<T = ()> = std::result::Result<T, String>;

/// The glue's module name in the main module's import section.
const GLUE_MODULE: &str = "./frontend_bg.js";

fn leb(data: &[u8], mut i: usize) -> Result<(u64, usize)> {
    let (mut value, mut shift) = (0u64, 0);
    loop {
        let byte = *data.get(i).ok_or("wasm: truncated LEB128")?;
        i += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok((value, i));
        }
        shift += 7;
        if shift > 63 {
            return Err("wasm: LEB128 too long".into());
        }
    }
}

fn put_leb(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn name(data: &[u8], i: usize) -> Result<(String, usize)> {
    let (len, i) = leb(data, i)?;
    let end = i + len as usize;
    let bytes = data.get(i..end).ok_or("wasm: truncated name")?;
    let text = String::from_utf8(bytes.to_vec()).map_err(|_| "wasm: a name is not UTF-8")?;
    Ok((text, end))
}

fn put_name(out: &mut Vec<u8>, text: &str) {
    put_leb(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

/// The end of an import's description that starts at `i`.
fn skip_import_desc(data: &[u8], i: usize) -> Result<usize> {
    let kind = *data.get(i).ok_or("wasm: truncated import")?;
    let i = i + 1;
    let limits = |i: usize| -> Result<usize> {
        let flags = *data.get(i).ok_or("wasm: truncated limits")?;
        let (_, i) = leb(data, i + 1)?;
        if flags & 1 == 1 {
            Ok(leb(data, i)?.1)
        } else {
            Ok(i)
        }
    };
    match kind {
        0 => Ok(leb(data, i)?.1),
        1 => limits(i + 1),
        2 => limits(i),
        3 => Ok(i + 2),
        4 => Ok(leb(data, i + 1)?.1),
        other => Err(format!("wasm: unknown import kind {other}")),
    }
}

/// The module's sections: (id, payload range).
fn sections(data: &[u8]) -> Result<Vec<(u8, std::ops::Range<usize>)>> {
    if data.get(..8) != Some(b"\0asm\x01\0\0\0".as_slice()) {
        return Err("not a wasm module".into());
    }
    let mut out = Vec::new();
    let mut i = 8;
    while i < data.len() {
        let id = data[i];
        let (size, start) = leb(data, i + 1)?;
        let end = start + size as usize;
        if end > data.len() {
            return Err("wasm: truncated section".into());
        }
        out.push((id, start..end));
        i = end;
    }
    Ok(out)
}

/// The `n`th short name: `a`…`z`, `A`…`Z`, then two letters.
fn short_name(n: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let base = LETTERS.len();
    if n < base {
        (LETTERS[n] as char).to_string()
    } else {
        let n = n - base;
        format!(
            "{}{}",
            LETTERS[(n / base) % base] as char,
            LETTERS[n % base] as char
        )
    }
}

fn is_word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Where `word` occurs in `text` as a whole identifier.
fn whole_words(text: &str, word: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    text.match_indices(word)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = at.checked_sub(1).map(|b| bytes[b]);
            let after = bytes.get(at + word.len()).copied();
            !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
        })
        .collect()
}

/// Renames the glue's imports in `wasm` and `glue` (see the module's doc);
/// returns how many were renamed.
pub fn shorten_in(wasm: &[u8], glue: &str) -> Result<(Vec<u8>, String, usize)> {
    let sections = sections(wasm)?;
    let mut exports = HashSet::new();
    for (id, range) in &sections {
        if *id == 7 {
            let (count, mut i) = leb(wasm, range.start)?;
            for _ in 0..count {
                let (export, next) = name(wasm, i)?;
                exports.insert(export);
                i = leb(wasm, next + 1)?.1;
            }
        }
    }
    let mut out = wasm[..8].to_vec();
    let mut glue = glue.to_string();
    let mut renamed = 0;
    for (id, range) in &sections {
        if *id != 2 {
            out.push(*id);
            put_leb(&mut out, range.len() as u64);
            out.extend_from_slice(&wasm[range.clone()]);
            continue;
        }
        let (count, mut i) = leb(wasm, range.start)?;
        let mut payload = Vec::new();
        put_leb(&mut payload, count);
        for _ in 0..count {
            let (module, next) = name(wasm, i)?;
            let (field, next) = name(wasm, next)?;
            let end = skip_import_desc(wasm, next)?;
            let mut new_field = field.clone();
            if module == GLUE_MODULE && !exports.contains(&field) {
                let at = whole_words(&glue, &field);
                if let [at] = at[..] {
                    new_field = short_name(renamed);
                    glue.replace_range(at..at + field.len(), &new_field);
                    renamed += 1;
                }
            }
            put_name(&mut payload, &module);
            put_name(&mut payload, &new_field);
            payload.extend_from_slice(&wasm[next..end]);
            i = end;
        }
        if i != range.end {
            return Err("wasm: the import section has bytes after its imports".into());
        }
        out.push(2);
        put_leb(&mut out, payload.len() as u64);
        out.extend_from_slice(&payload);
    }
    Ok((out, glue, renamed))
}

/// [`shorten_in`] on the files: the main module and its glue, in place.
pub fn shorten(wasm_path: &Path, glue_path: &Path) -> Result<usize> {
    let wasm = fs::read(wasm_path).map_err(|e| format!("{}: {e}", wasm_path.display()))?;
    let glue =
        fs::read_to_string(glue_path).map_err(|e| format!("{}: {e}", glue_path.display()))?;
    let (wasm, glue, renamed) = shorten_in(&wasm, &glue)?;
    fs::write(wasm_path, wasm).map_err(|e| e.to_string())?;
    fs::write(glue_path, glue).map_err(|e| e.to_string())?;
    Ok(renamed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with a type, the given function imports (module, name) and
    /// exports (name → function 0).
    fn module(imports: &[(&str, &str)], exports: &[&str]) -> Vec<u8> {
        let mut out = b"\0asm\x01\0\0\0".to_vec();
        // Type section: one `() -> ()`.
        out.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        let mut payload = Vec::new();
        put_leb(&mut payload, imports.len() as u64 + 1);
        for (module, field) in imports {
            put_name(&mut payload, module);
            put_name(&mut payload, field);
            payload.extend_from_slice(&[0, 0]);
        }
        // A memory import with a maximum (limits flag 1).
        put_name(&mut payload, "env");
        put_name(&mut payload, "memory");
        payload.extend_from_slice(&[2, 1, 1, 2]);
        out.push(2);
        put_leb(&mut out, payload.len() as u64);
        out.extend_from_slice(&payload);
        let mut payload = Vec::new();
        put_leb(&mut payload, exports.len() as u64);
        for export in exports {
            put_name(&mut payload, export);
            payload.extend_from_slice(&[0, 0]);
        }
        out.push(7);
        put_leb(&mut out, payload.len() as u64);
        out.extend_from_slice(&payload);
        out
    }

    fn import_names(wasm: &[u8]) -> Vec<(String, String)> {
        let sections = sections(wasm).unwrap();
        let (_, range) = sections.iter().find(|(id, _)| *id == 2).unwrap();
        let (count, mut i) = leb(wasm, range.start).unwrap();
        (0..count)
            .map(|_| {
                let (module, next) = name(wasm, i).unwrap();
                let (field, next) = name(wasm, next).unwrap();
                i = skip_import_desc(wasm, next).unwrap();
                (module, field)
            })
            .collect()
    }

    #[test]
    fn the_glues_imports_get_short_names_in_both_files_and_nothing_else_changes() {
        let wasm = module(
            &[
                (GLUE_MODULE, "__wbg_set_x_dee63ba79ed09fc1"),
                (GLUE_MODULE, "__wbg_set_x_dee63ba79ed09fc1_2"),
                // Also an export: kept.
                (GLUE_MODULE, "__wbindgen_shared"),
                // Named twice in the glue: kept.
                (GLUE_MODULE, "__wbg_twice_0123456789abcdef"),
                // Another module's: kept.
                ("./snippets/x/inline0.js", "start_renderer"),
            ],
            &["__wbindgen_shared", "hydrate"],
        );
        let glue = "function H(){return{\"./frontend_bg.js\":{__wbg_set_x_dee63ba79ed09fc1:function(e,t){e.x=t},\
__wbg_set_x_dee63ba79ed09fc1_2:function(e,t){e.x=t},__wbindgen_shared:function(){},\
__wbg_twice_0123456789abcdef:function(){}}}}const k=\"__wbg_twice_0123456789abcdef\";";
        let (out, new_glue, renamed) = shorten_in(&wasm, glue).unwrap();
        assert_eq!(renamed, 2);
        assert_eq!(
            import_names(&out),
            vec![
                (GLUE_MODULE.to_string(), "a".to_string()),
                (GLUE_MODULE.to_string(), "b".to_string()),
                (GLUE_MODULE.to_string(), "__wbindgen_shared".to_string()),
                (
                    GLUE_MODULE.to_string(),
                    "__wbg_twice_0123456789abcdef".to_string()
                ),
                (
                    "./snippets/x/inline0.js".to_string(),
                    "start_renderer".to_string()
                ),
                ("env".to_string(), "memory".to_string()),
            ]
        );
        assert!(
            new_glue.contains("{a:function(e,t){e.x=t},b:function(e,t){e.x=t},__wbindgen_shared:"),
            "{new_glue}"
        );
        assert!(!new_glue.contains("dee63ba79ed09fc1"), "{new_glue}");
        // Every section but the imports is as it was.
        let before = sections(&wasm).unwrap();
        let after = sections(&out).unwrap();
        assert_eq!(before.len(), after.len());
        for ((id, a), (id2, b)) in before.iter().zip(&after) {
            assert_eq!(id, id2);
            if *id != 2 {
                assert_eq!(wasm[a.clone()], out[b.clone()]);
            }
        }
    }

    #[test]
    fn short_names_are_distinct_identifiers() {
        let names: HashSet<String> = (0..2000).map(short_name).collect();
        assert_eq!(names.len(), 2000);
        assert!(names
            .iter()
            .all(|n| n.bytes().all(|c| c.is_ascii_alphabetic())));
    }
}
