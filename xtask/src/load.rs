//! `cargo xtask load [--instances N] [--no-build] [-- <othello-load arguments>]`: builds the
//! release server and `othello-load`, starts the server(s) on free loopback
//! ports with a fresh database, drives them with the load tool, stops them.
//!
//! One instance (the default) runs on a fresh SQLite file, as a single machine
//! does. `--instances N` with N ≥ 2 starts a throwaway PostgreSQL cluster
//! (`initdb` + `pg_ctl` on a temporary folder, durable settings: `fsync` and
//! `synchronous_commit` on, as SQLite's `synchronous=FULL`) and N instances
//! sharing it; the load tool gets every instance's URL and puts each game's
//! two players on different instances. `--postgres` runs a single instance on
//! PostgreSQL too (to compare the stores alone).

use super::{cargo, root, sh, step, target_dir, Result};
use std::fs;
use std::io::BufRead;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub(crate) fn load(args: &[String]) -> Result {
    let mut instances = 1usize;
    let mut postgres = false;
    let mut build = true;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--instances" => {
                instances = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n: &usize| (1..=16).contains(&n))
                    .ok_or("--instances takes a number from 1 to 16")?;
            }
            "--postgres" => postgres = true,
            // Measure the release binaries already built (say, while the
            // sources are being edited).
            "--no-build" => build = false,
            "--" => {
                rest.extend(it.by_ref().cloned());
            }
            other => rest.push(other.to_string()),
        }
    }
    postgres |= instances > 1;
    lift_open_files();
    if build {
        step("building the release server and the load tool");
        sh(
            &cargo(),
            &["build", "--release", "-p", "server", "-p", "load"],
        )?;
    }
    let dir = std::env::temp_dir().join(format!("othello-load-{}", std::process::id()));
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let outcome = run(&dir, instances, postgres, &rest);
    let _ = fs::remove_dir_all(&dir);
    outcome
}

fn run(dir: &Path, instances: usize, postgres: bool, rest: &[String]) -> Result {
    let cluster = if postgres {
        step("starting a throwaway PostgreSQL cluster");
        Some(Cluster::start(dir)?)
    } else {
        None
    };
    let mut servers = Servers(Vec::new());
    let mut urls = Vec::new();
    for _ in 0..instances {
        let database = match &cluster {
            Some(c) => c.url(),
            None => dir.join("load.db").display().to_string(),
        };
        let (child, url) = start_server(&database)?;
        servers.0.push(child);
        urls.push(url);
    }
    let urls = urls.join(",");
    let pids = servers
        .0
        .iter()
        .map(|c| c.id().to_string())
        .collect::<Vec<_>>()
        .join(",");
    step(&format!("load against {urls}"));
    let mut load_args = vec!["--url", urls.as_str(), "--server-pid", pids.as_str()];
    // PostgreSQL's postmaster (the first line of `postmaster.pid`): the load
    // tool reads the CPU it and its backends use.
    let db_pid = cluster.as_ref().and_then(Cluster::pid);
    if let Some(pid) = &db_pid {
        load_args.extend(["--db-pid", pid.as_str()]);
    }
    load_args.extend(rest.iter().map(String::as_str));
    let outcome = sh(
        &target_dir().join("release/othello-load").to_string_lossy(),
        &load_args,
    );
    drop(servers);
    drop(cluster);
    outcome
}

/// Thousands of games hold two sockets per player on each side of loopback:
/// raise this process's open-file limit (inherited by the server and the
/// load tool) with `prlimit`, as far as the system lets us (root may raise
/// the hard limit too). A failure only warns: small runs need no more.
fn lift_open_files() {
    const WANTED: u32 = 262_144;
    let pid = std::process::id().to_string();
    let lifted = Command::new("prlimit")
        .args(["--pid", &pid, &format!("--nofile={WANTED}:{WANTED}")])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !lifted {
        eprintln!(
            "xtask load: could not raise the open-file limit to {WANTED} (prlimit); \
             runs of more than a few thousand games may fail to open sockets"
        );
    }
}

/// The started servers, killed when dropped (also on an early error).
struct Servers(Vec<Child>);

impl Drop for Servers {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts one server and waits for its "listening on" line.
fn start_server(database: &str) -> Result<(Child, String)> {
    // Every simulated player comes from 127.0.0.1: lift the per-address limits
    // (they are for the public internet, see docs/SECURITY.md).
    let mut command = Command::new(target_dir().join("release/othello-server"));
    command
        .args([
            "--rate-per-ip",
            "0",
            "--max-tables-per-ip",
            "1000000",
            "--max-sockets-per-ip",
            "1000000",
            // An arena's simulated players sign up from addresses of their
            // own (`X-Real-IP`), as people would.
            "--client-ip-header",
            "x-real-ip",
        ])
        .args([
            "--listen",
            "127.0.0.1:0",
            "--log",
            "warn",
            "--database",
            database,
        ]);
    let mut server = command
        .current_dir(root())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let stdout = server.stdout.take().ok_or("no server stdout")?;
    let mut reader = std::io::BufReader::new(stdout);
    let mut line = String::new();
    let url = loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(|e| e.to_string())?;
        if read == 0 {
            let _ = server.kill();
            return Err("the server exited before listening".into());
        }
        if let Some(url) = line.trim().strip_prefix("listening on ") {
            break url.to_string();
        }
    };
    std::thread::spawn(move || {
        let mut sink = String::new();
        while reader.read_line(&mut sink).map(|n| n > 0).unwrap_or(false) {
            sink.clear();
        }
    });
    Ok((server, url))
}

/// A throwaway PostgreSQL cluster (as the cluster tests' `support/pg.rs`, but
/// with durable settings), stopped when dropped.
struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

impl Cluster {
    fn start(parent: &Path) -> Result<Cluster> {
        let bin = find_bin()?;
        let dir = parent.join("pg");
        fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let as_postgres = fs::metadata("/proc/self")
            .map(|m| m.uid() == 0)
            .unwrap_or(false);
        if as_postgres {
            // The folder and its parents must be reachable by `postgres`.
            let ok = Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(parent)
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if !ok {
                return Err("cannot give the load folder to postgres".into());
            }
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(|e| e.to_string())?;
        let cluster = Cluster {
            dir,
            bin,
            port,
            as_postgres,
        };
        let data = cluster.data();
        cluster.run(&[
            "initdb",
            "-D",
            &data,
            "-U",
            "postgres",
            "--auth=trust",
            "--no-locale",
            "-E",
            "UTF8",
        ])?;
        let options = format!(
            "-h 127.0.0.1 -p {} -k {} -c max_connections=300 -c shared_buffers=512MB",
            cluster.port,
            cluster.dir.display()
        );
        let log = cluster.dir.join("server.log").display().to_string();
        cluster.run(&[
            "pg_ctl", "-D", &data, "-l", &log, "-o", &options, "-w", "-t", "60", "start",
        ])?;
        Ok(cluster)
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// The postmaster's process id.
    fn pid(&self) -> Option<String> {
        let text = fs::read_to_string(self.dir.join("data/postmaster.pid")).ok()?;
        let pid = text.lines().next()?.trim();
        pid.parse::<u32>().is_ok().then(|| pid.to_string())
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    fn run(&self, args: &[&str]) -> Result {
        let program = self.bin.join(args[0]);
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        };
        let output = command
            .args(&args[1..])
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", args[0]))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} failed: {}{}",
                args[0],
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ))
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self.run(&["pg_ctl", "-D", &data, "-m", "fast", "-w", "stop"]);
    }
}

/// The folder holding `initdb` and `pg_ctl`: on `PATH`, else the newest
/// `/usr/lib/postgresql/*/bin`.
fn find_bin() -> Result<PathBuf> {
    let usable = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(path) = std::env::var_os("PATH") {
        if let Some(dir) = std::env::split_paths(&path).find(|d| usable(d)) {
            return Ok(dir);
        }
    }
    let mut installed: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
        .map(|dirs| {
            dirs.filter_map(|d| d.ok().map(|d| d.path().join("bin")))
                .filter(|bin| usable(bin))
                .collect()
        })
        .unwrap_or_default();
    installed.sort();
    installed.pop().ok_or_else(|| {
        "PostgreSQL is not installed (initdb, pg_ctl): apt-get install postgresql".into()
    })
}
