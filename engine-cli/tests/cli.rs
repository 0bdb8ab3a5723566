//! The `othello` binary.

mod common;
use std::process::Command;

#[test]
fn perft_5_prints_the_leaf_count() {
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["perft", "5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1396");
}

#[test]
fn bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["perft"][..],
        &["perft", "x"],
        &["fly"],
        &[],
        &["search", "--depth", "0", "x"],
        &["solve", "XO X"],
        &["bench", "everything"],
        &["solve-file"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("usage:"),
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn solve_and_search_print_results() {
    let near_end = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOO--- X";
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["solve", near_end])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("score "), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args([
            "search",
            "--depth",
            "3",
            "---------------------------OX------XO--------------------------- X",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("best d3 value "), "{text}");
}

#[test]
fn solve_file_checks_the_listed_scores() {
    // Small endgames (8 empties) with their exact scores, in FFO format.
    let dir = std::env::temp_dir().join(format!("othello-solve-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let positions = common::positions(5, 8, 3);
    let right: String = positions
        .iter()
        .map(|p| {
            format!(
                "{}; A1:{:+}\n",
                p.to_obf(),
                engine::reference::solve_exhaustive(p)
            )
        })
        .collect();
    let wrong: String = positions
        .iter()
        .map(|p| {
            format!(
                "{}; A1:{:+}\n",
                p.to_obf(),
                engine::reference::solve_exhaustive(p) + 2
            )
        })
        .collect();
    for (name, text, code) in [("right.obf", &right, 0), ("wrong.obf", &wrong, 1)] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_othello"))
            .arg("solve-file")
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{name}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().count(), 4, "{stdout}");
        assert!(
            stdout.lines().last().unwrap().starts_with("total: "),
            "{stdout}"
        );
        if code == 0 {
            assert_eq!(stdout.matches(": exact").count(), 3, "{stdout}");
        } else {
            assert_eq!(stdout.matches("WRONG").count(), 3, "{stdout}");
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["solve-file", "/nonexistent/ffo.obf"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    for flag in ["help", "--help", "-h"] {
        let out = Command::new(env!("CARGO_BIN_EXE_othello"))
            .arg(flag)
            .output()
            .unwrap();
        assert!(out.status.success(), "{flag}: {:?}", out.status);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("othello perft N"), "{flag}: {text}");
    }
}

fn othello(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_book_builds_resumes_to_the_same_bytes_and_shows() {
    let dir = std::env::temp_dir().join(format!("othello-book-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (once, twice) = (dir.join("once.bin"), dir.join("twice.bin"));
    let build = |out: &std::path::Path, positions: &str| {
        let out = out.to_str().unwrap();
        let r = othello(&[
            "book",
            "build",
            "--out",
            out,
            "--depth",
            "2",
            "--plies",
            "6",
            "--positions",
            positions,
            "--save-every",
            "4",
        ]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        String::from_utf8(r.stdout).unwrap()
    };
    build(&once, "12");
    build(&twice, "5");
    let resumed = build(&twice, "12");
    assert!(resumed.contains("resuming"), "{resumed}");
    let bytes = std::fs::read(&once).unwrap();
    assert_eq!(std::fs::read(&twice).unwrap(), bytes);
    let progress =
        |p: &std::path::Path| std::fs::read(format!("{}.progress", p.display())).unwrap();
    assert_eq!(progress(&twice), progress(&once));
    // Other parameters on a resume are refused.
    let r = othello(&[
        "book",
        "build",
        "--out",
        twice.to_str().unwrap(),
        "--depth",
        "3",
    ]);
    assert!(!r.status.success());
    // show: the start's four moves, all from the book; stats: the figures.
    let r = othello(&["book", "show", "--book", once.to_str().unwrap(), "f5"]);
    assert!(r.status.success());
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(text.contains("every move in the book"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with(['d', 'f'])).count(),
        3,
        "{text}"
    );
    let r = othello(&["book", "stats", "--book", once.to_str().unwrap()]);
    let text = String::from_utf8(r.stdout).unwrap();
    assert!(text.contains("12 expanded"), "{text}");
    assert!(text.contains(&format!("{} bytes", bytes.len())), "{text}");
    // A damaged book is a clear error, not a panic.
    let mut damaged = bytes.clone();
    damaged[30] ^= 1;
    std::fs::write(dir.join("bad.bin"), damaged).unwrap();
    let r = othello(&[
        "book",
        "stats",
        "--book",
        dir.join("bad.bin").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("checksum"));
    let _ = std::fs::remove_dir_all(&dir);
}
