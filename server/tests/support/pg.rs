//! A throwaway PostgreSQL cluster for tests: `initdb` on a temporary folder,
//! `pg_ctl start` on 127.0.0.1 and a free port (trust authentication,
//! `fsync=off`), stopped and deleted when dropped.
//!
//! The programs are found on `PATH` or in `/usr/lib/postgresql/*/bin`. A
//! machine without them fails the test with a message saying so (the CI
//! script installs PostgreSQL). `initdb` refuses to run as root: as root,
//! both programs run as the `postgres` user through `runuser`, on a folder
//! given to that user.

#![allow(dead_code)]

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct PgCluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// The folder holding `initdb` and `pg_ctl`.
fn find_bin() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file());
    if let Some(dir) = on_path {
        return dir;
    }
    let mut installed: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|dirs| {
            dirs.filter_map(|d| d.ok().map(|d| d.path().join("bin")))
                .filter(|bin| bin.join("initdb").is_file() && bin.join("pg_ctl").is_file())
                .collect()
        })
        .unwrap_or_default();
    installed.sort();
    installed.pop().unwrap_or_else(|| {
        panic!(
            "PostgreSQL is not installed: `initdb` and `pg_ctl` were found neither on PATH nor in \
             /usr/lib/postgresql/*/bin. These tests need a real PostgreSQL server: install it \
             (Debian: `apt-get install postgresql`; .ci/run does this)."
        )
    })
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl PgCluster {
    /// Creates and starts a cluster; panics with the server's log if it
    /// cannot.
    pub fn start() -> PgCluster {
        let bin = find_bin();
        let dir = tempfile::tempdir().expect("temp dir");
        let as_postgres = std::fs::metadata("/proc/self")
            .map(|m| m.uid() == 0)
            .unwrap_or(false);
        if as_postgres {
            let status = Command::new("chown")
                .args(["-R", "postgres:"])
                .arg(dir.path())
                .status()
                .expect("chown runs");
            assert!(status.success(), "cannot give the temp folder to postgres");
        }
        let mut cluster = PgCluster {
            dir,
            bin,
            port: 0,
            as_postgres,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "--no-locale",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        // A port found free may be taken before the server binds it: try a
        // few.
        for _ in 0..5 {
            cluster.port = free_port();
            if cluster.pg_start() {
                return cluster;
            }
        }
        let log =
            std::fs::read_to_string(cluster.dir.path().join("server.log")).unwrap_or_default();
        panic!("PostgreSQL did not start:\n{log}");
    }

    /// `pg_ctl start` on the cluster's port; whether it started.
    fn pg_start(&self) -> bool {
        let options = format!(
            "-h 127.0.0.1 -p {} -k {} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("server.log");
        self.try_run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-l",
                &log.display().to_string(),
                "-o",
                &options,
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
    }

    /// Stops the server (`-m fast`: every connection is cut at once, as a
    /// database going away looks to its clients; what was committed is kept
    /// — these test clusters commit without waiting for the WAL, which an
    /// `immediate` stop would lose).
    pub fn stop(&self) {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "fast", "-w", "stop"]);
    }

    /// Starts the server again on the same port (it recovers from its WAL).
    pub fn restart(&self) {
        assert!(self.pg_start(), "PostgreSQL did not start again");
    }

    /// The URL of the cluster's `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// A folder beside the cluster for the test's other files.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn command(&self, program: &str, args: &[&str]) -> Command {
        let program = self.bin.join(program);
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(program);
            command
        } else {
            Command::new(program)
        };
        command.args(args).current_dir(self.dir.path());
        command
    }

    fn try_run(&self, program: &str, args: &[&str]) -> bool {
        self.command(program, args)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    }

    fn run(&self, program: &str, args: &[&str]) {
        let output = self
            .command(program, args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        assert!(
            output.status.success(),
            "{program} failed:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
    }
}
