//! Runs the workspace's test binaries side by side, one per core.
//!
//! `cargo test` runs its test binaries one after another, and the longest
//! ones leave a core idle: the engine's endgame tests (FFO solves), the
//! cluster tests (mostly waiting on instances and PostgreSQL), the
//! PostgreSQL store's. So `cargo xtask test` asks cargo for the binaries it
//! built (`--no-run --message-format=json`) and runs them itself, as many at
//! once as the machine has cores, the slowest of the last run first (their
//! times are kept in `target/xtask-test-times.txt`), each in its package's
//! folder as cargo would. No crate runs doc tests (each library says
//! `doctest = false`, checked by [`no_doc_tests`]; its examples are
//! integration tests): `cargo test --doc` ran rustdoc over every crate for
//! two examples, ~28 s of each run.
//! On this 2-core machine, quiet: 173.6 s one after another, 124.5 s side by
//! side (docs/BENCHMARKS.md).
//!
//! Every binary's output goes to `target/xtask-test-logs/<name>.log`; a
//! failing one's is printed. Tests already find their own free ports and
//! temporary folders (`server/tests/support`), so binaries do not collide.
use crate::{command, root, target_dir, Result};
use std::collections::HashMap;
use std::fs;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One job: a test binary, where it runs and its name.
struct Job {
    name: String,
    program: PathBuf,
    args: Vec<String>,
    dir: PathBuf,
}

/// The test binaries cargo built for `args` (`cargo test <args> --no-run`),
/// from its JSON messages: every artefact of a test target with an
/// executable, named `package::target`.
fn test_binaries(args: &[&str]) -> Result<Vec<Job>> {
    let mut full = vec!["test"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--no-run", "--message-format=json-render-diagnostics"]);
    let output = command(&crate::cargo())
        .args(&full)
        .current_dir(root())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot start cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`cargo {}` failed ({})",
            full.join(" "),
            output.status
        ));
    }
    let mut jobs = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" || message["profile"]["test"] != true {
            continue;
        }
        let (Some(program), Some(manifest), Some(target)) = (
            message["executable"].as_str(),
            message["manifest_path"].as_str(),
            message["target"]["name"].as_str(),
        ) else {
            continue;
        };
        let dir = Path::new(manifest)
            .parent()
            .map_or_else(root, Path::to_path_buf);
        let package = dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().to_string());
        jobs.push(Job {
            name: format!("{package}::{target}"),
            program: PathBuf::from(program),
            args: Vec::new(),
            dir,
        });
    }
    Ok(jobs)
}

/// The last run's seconds per job (`target/xtask-test-times.txt`, lines of
/// `seconds name`).
fn last_times(file: &Path) -> HashMap<String, f64> {
    fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| {
            let (secs, name) = line.split_once(' ')?;
            Some((name.to_string(), secs.parse().ok()?))
        })
        .collect()
}

/// Orders jobs slowest first by the last run's times; jobs never timed (new
/// ones) go first, as they may be slow.
fn slowest_first(jobs: &mut [Job], times: &HashMap<String, f64>) {
    jobs.sort_by(|a, b| {
        let time = |j: &Job| times.get(&j.name).copied().unwrap_or(f64::INFINITY);
        time(b)
            .partial_cmp(&time(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.name.cmp(&b.name))
    });
}

/// Runs one job with its output to `log`, killed (with its process group)
/// after `deadline`. Ok(seconds) when it passed.
fn run_job(job: &Job, log: &Path, deadline: Instant) -> Result<f64> {
    let file = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file.try_clone().map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut child = command(&job.program.to_string_lossy())
        .args(&job.args)
        .current_dir(&job.dir)
        .env("CARGO_MANIFEST_DIR", &job.dir)
        .stdout(file)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", job.program.display()))?;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return if status.success() {
                Ok(started.elapsed().as_secs_f64())
            } else {
                Err(format!("{} failed ({status})", job.name))
            };
        }
        if Instant::now() > deadline {
            // The whole group: the binary and anything it started.
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return Err(format!(
                "{} was still running at the suite's time limit and was stopped \
                 (a test hangs: its log names it)",
                job.name
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Prints a failed job's error and the end of its log.
fn report_failure(job: &Job, log: &Path, error: &str) {
    let text = fs::read_to_string(log).unwrap_or_default();
    let tail: Vec<&str> = text.lines().rev().take(80).collect();
    eprintln!(
        "    FAIL {}: {error}\n--- {} (last 80 lines) ---",
        job.name,
        log.display()
    );
    for line in tail.iter().rev() {
        eprintln!("{line}");
    }
    eprintln!("---");
}

/// Refuses a workspace library that would have doc tests: the test command
/// runs none (see the module's notes), so an example there would never run.
fn no_doc_tests() -> Result {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).map_err(|e| e.to_string())?;
    let members = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .ok_or("Cargo.toml: no `members = [...]` line")?;
    for member in members.trim_end_matches(']').split(',') {
        let member = member.trim().trim_matches('"');
        if member.is_empty() || member == "frontend" {
            continue;
        }
        let dir = root().join(member);
        let text =
            fs::read_to_string(dir.join("Cargo.toml")).map_err(|e| format!("{member}: {e}"))?;
        let library = dir.join("src/lib.rs").exists() || text.contains("\n[lib]");
        if library && !text.contains("doctest = false") {
            return Err(format!(
                "{member}/Cargo.toml: its library runs doc tests; say `doctest = false` \
                 under [lib] and make its examples integration tests (the test command runs no doc tests)"
            ));
        }
    }
    Ok(())
}

/// Builds and runs every native test of the workspace (`args`: the package
/// selection, as for `cargo test`), the binaries side by side, within `limit`.
pub fn run(args: &[&str], limit: Duration) -> Result {
    no_doc_tests()?;
    let mut jobs = test_binaries(args)?;
    let times_file = target_dir().join("xtask-test-times.txt");
    slowest_first(&mut jobs, &last_times(&times_file));
    let logs = target_dir().join("xtask-test-logs");
    fs::create_dir_all(&logs).map_err(|e| e.to_string())?;
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(jobs.len());
    eprintln!("    {} jobs, {workers} at a time", jobs.len());
    let deadline = Instant::now() + limit;
    let queue = Mutex::new(jobs.iter());
    let results = Mutex::new(Vec::new());
    let (logs, results_ref) = (&logs, &results);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            // The queue's lock is held only to take the next job.
            let next = || queue.lock().ok().and_then(|mut q| q.next());
            scope.spawn(move || {
                while let Some(job) = next() {
                    let log = logs.join(format!("{}.log", job.name.replace([':', ' '], "_")));
                    let result = run_job(job, &log, deadline);
                    match &result {
                        Ok(secs) => eprintln!("    ok   {secs:6.1}s  {}", job.name),
                        Err(e) => report_failure(job, &log, e),
                    }
                    if let Ok(mut r) = results_ref.lock() {
                        r.push((job.name.clone(), result));
                    }
                }
            });
        }
    });
    let results = results.into_inner().map_err(|e| e.to_string())?;
    let failed: Vec<&str> = results
        .iter()
        .filter(|(_, r)| r.is_err())
        .map(|(n, _)| n.as_str())
        .collect();
    if failed.is_empty() {
        let times: String = results
            .iter()
            .filter_map(|(name, r)| r.as_ref().ok().map(|secs| format!("{secs:.1} {name}\n")))
            .collect();
        let _ = fs::write(&times_file, times);
        Ok(())
    } else {
        Err(format!(
            "{} test job(s) failed: {}",
            failed.len(),
            failed.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(name: &str) -> Job {
        Job {
            name: name.into(),
            program: PathBuf::new(),
            args: Vec::new(),
            dir: PathBuf::new(),
        }
    }

    #[test]
    fn the_slowest_run_first_and_new_ones_before_them() {
        let mut jobs = vec![job("a"), job("b"), job("new"), job("c")];
        let times: HashMap<String, f64> = [("a", 1.0), ("b", 40.0), ("c", 12.5)]
            .map(|(n, t)| (n.to_string(), t))
            .into();
        slowest_first(&mut jobs, &times);
        let names: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["new", "b", "c", "a"]);
    }

    #[test]
    fn times_are_read_back_as_written() {
        let dir = std::env::temp_dir().join(format!("xtask-times-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("times.txt");
        fs::write(&file, "12.5 server::cluster\n0.3 doc tests\nnot a line\n").unwrap();
        let times = last_times(&file);
        assert_eq!(times.get("server::cluster"), Some(&12.5));
        assert_eq!(times.get("doc tests"), Some(&0.3));
        assert_eq!(times.len(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failing_job_fails_and_a_passing_one_passes() {
        let dir = std::env::temp_dir().join(format!("xtask-jobs-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let run = |program: &str| {
            let job = Job {
                name: program.into(),
                program: PathBuf::from(program),
                args: Vec::new(),
                dir: dir.clone(),
            };
            run_job(
                &job,
                &dir.join("log"),
                Instant::now() + Duration::from_secs(60),
            )
        };
        assert!(run("true").is_ok());
        assert!(run("false").is_err_and(|e| e.contains("failed")));
        fs::remove_dir_all(&dir).unwrap();
    }
}
