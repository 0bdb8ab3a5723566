//! The `othello` binary.

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
