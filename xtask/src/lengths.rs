//! The repository's rule on long files: a source or documentation file over
//! 600 lines says why in a reason line near its top ("Over 600 lines: …"
//! within its first 12 lines). `cargo xtask test` checks every tracked file.

use std::path::Path;
use std::process::Command;

/// Longest a file may be without a reason line.
pub const LIMIT: usize = 600;
/// How far from the top the reason line may stand.
const TOP: usize = 12;
/// The kinds of file the rule covers (by extension).
const COVERED: [&str; 10] = [
    "rs", "ts", "mjs", "js", "css", "md", "sql", "toml", "sh", "ftl",
];

/// Whether `text` (a file of `path`) breaks the rule.
pub fn breaks_rule(path: &str, text: &str) -> bool {
    let covered = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| COVERED.contains(&e));
    covered
        && text.lines().count() > LIMIT
        && !text
            .lines()
            .take(TOP)
            .any(|line| line.to_ascii_lowercase().contains("over 600 lines"))
}

/// Every tracked file that breaks the rule, with its line count.
pub fn offenders(root: &Path) -> Result<Vec<(String, usize)>, String> {
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("git ls-files: {e}"))?;
    if !listed.status.success() {
        return Err("git ls-files failed".into());
    }
    let mut found = Vec::new();
    for name in listed.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).to_string();
        // Unreadable or binary files (and files deleted in the work tree)
        // are not source text.
        let Ok(text) = std::fs::read_to_string(root.join(&name)) else {
            continue;
        };
        if breaks_rule(&name, &text) {
            found.push((name, text.lines().count()));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize, top: &str) -> String {
        let mut text = String::from(top);
        for i in 0..n {
            text.push_str(&format!("line {i}\n"));
        }
        text
    }

    #[test]
    fn a_long_file_needs_a_reason_near_its_top() {
        assert!(breaks_rule("a.rs", &lines(601, "")));
        assert!(!breaks_rule("a.rs", &lines(600, "")));
        assert!(!breaks_rule(
            "a.rs",
            &lines(
                700,
                "//! Parser.\n//! (Over 600 lines: the grammar's cases belong together.)\n"
            )
        ));
        // A reason far down the file does not count.
        let mut far = lines(20, "");
        far.push_str("// Over 600 lines: too late\n");
        far.push_str(&lines(700, ""));
        assert!(breaks_rule("b.md", &far));
        // Files the rule does not cover.
        assert!(!breaks_rule("Cargo.lock", &lines(5000, "")));
        assert!(!breaks_rule("data/positions.obf", &lines(5000, "")));
    }
}
