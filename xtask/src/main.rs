// Over 600 lines: the whole build driver (site, split, hashing steps, run, test, load) reads top to bottom in one file; the hashing itself is in hash.rs.
//! The build, run and test driver behind `cargo xtask`.
//!
//! ```text
//! cargo xtask run [--release] [--no-house-bots] [-- SERVER ARGS]
//!                                    build everything and start the site on :40085
//!                                    (the test command's build; --release: production)
//!                                    with the house bots' bridges beside it (house.rs)
//! cargo xtask test                   every test: fmt, clippy, cargo test, the browser suite
//! cargo xtask build [--release]      build the site (wasm, Three.js, CSS) and the server
//! cargo xtask site                   build only the site folder
//! cargo xtask load [-- ARGS]          release server on a free port + the load tool
//! ```
//!
//! It installs what a fresh machine lacks: the wasm32 target (rustup), the npm
//! packages from `package-lock.json` (Three.js, esbuild, binaryen's wasm-opt, Playwright)
//! and Debian's Chromium for the browser tests. wasm-bindgen runs as a library
//! (`wasm-bindgen-cli-support`), pinned by the lockfile to the crate's version.

mod compress;
mod hash;
mod house;
mod imports;
mod lengths;
mod load;
mod testrun;

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.split_first() {
        Some((c, rest)) => (c.as_str(), rest.to_vec()),
        None => ("help", Vec::new()),
    };
    let started = Instant::now();
    let outcome = match command {
        "run" => run(&rest),
        "test" => test(&rest),
        "build" => build(rest.iter().any(|a| a == "--release")),
        "site" => site(),
        "load" => load::load(&rest),
        "help" | "--help" | "-h" => {
            println!("{}", USAGE);
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    };
    end_step();
    match outcome {
        Ok(()) => {
            eprintln!(
                "xtask {command}: done in {:.1}s",
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("xtask {command}: {message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <run [--release] [-- server args] | test [playwright args] | build [--release] | site | load [-- args]>";

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives inside the workspace")
        .to_path_buf()
}

/// When the step in progress began, and its name.
static STEP: std::sync::Mutex<Option<(Instant, String)>> = std::sync::Mutex::new(None);

/// Announces a step, and how long the previous one took.
fn step(name: &str) {
    end_step();
    eprintln!("==> {name}");
    if let Ok(mut current) = STEP.lock() {
        *current = Some((Instant::now(), name.to_string()));
    }
}

/// Prints how long the step in progress took (at the next step or the end).
fn end_step() {
    if let Some((began, name)) = STEP.lock().ok().and_then(|mut s| s.take()) {
        eprintln!("    ({:.1}s: {name})", began.elapsed().as_secs_f64());
    }
}

/// Runs a command in the workspace root, failing on a non-zero exit.
/// A command without the variables `cargo run` set for the xtask itself
/// (`CARGO_PKG_*`, `CARGO_MANIFEST_*`, …). Build scripts such as ring's
/// rerun when these change, so a nested `cargo` that saw them would rebuild
/// ring and everything above it (rustls, reqwest, the server) whenever a
/// developer alternates `cargo xtask test` and a plain `cargo test`.
fn command(program: &str) -> Command {
    let mut command = Command::new(program);
    for (name, _) in std::env::vars_os() {
        let Some(name) = name.to_str() else { continue };
        if name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_MANIFEST_")
            || matches!(
                name,
                "CARGO_CRATE_NAME" | "CARGO_BIN_NAME" | "CARGO_PRIMARY_PACKAGE" | "OUT_DIR"
            )
        {
            command.env_remove(name);
        }
    }
    command
}

fn sh(program: &str, args: &[&str]) -> Result {
    sh_env(program, args, &[])
}

fn sh_env(program: &str, args: &[&str], env: &[(&str, &str)]) -> Result {
    let status = command(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn ensure_wasm_target() -> Result {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("wasm32-unknown-unknown"))
        .unwrap_or(false);
    if !installed {
        step("installing the wasm32-unknown-unknown target");
        sh("rustup", &["target", "add", "wasm32-unknown-unknown"])?;
    }
    Ok(())
}

fn ensure_npm_packages() -> Result {
    let root = root();
    let marker = root.join("node_modules/.package-lock.json");
    let lock = root.join("package-lock.json");
    let fresh = match (fs::metadata(&marker), fs::metadata(&lock)) {
        (Ok(m), Ok(l)) => m.modified().ok() >= l.modified().ok(),
        _ => false,
    };
    if !fresh
        || !root
            .join("node_modules/three/build/three.webgpu.js")
            .exists()
        || !root.join("node_modules/.bin/esbuild").exists()
    {
        step("installing npm packages (npm ci)");
        sh("npm", &["ci", "--no-audit", "--no-fund"])?;
    }
    Ok(())
}

fn ensure_chromium() -> Result {
    if Path::new("/usr/bin/chromium").exists() {
        return Ok(());
    }
    step("installing Debian's chromium");
    sh("apt-get", &["update", "-qq"])?;
    sh_env(
        "apt-get",
        &["install", "-y", "-qq", "chromium"],
        &[("DEBIAN_FRONTEND", "noninteractive")],
    )
}

/// Builds the `site/` folder: the wasm package, Three.js and the CSS, each with
/// a gzip and a brotli twin that the server sends to browsers that accept them.
fn site() -> Result {
    compress_now(site_files()?)
}

/// Makes the files' compressed twins now, when they are not made already.
fn compress_now(twins: Option<compress::Precompression>) -> Result {
    match twins {
        Some(twins) => {
            step("precompressing (gzip and brotli, one file per core)");
            twins.run()
        }
        None => Ok(()),
    }
}

/// The compiler flags of the site's wasm (the app's main module and its
/// chunks; not the engine's worker module, nor any native build): the
/// workspace's own (`--cfg erase_components`, .cargo/config.toml, which a
/// target's flags replace), plus two that take what no page shows out of the
/// module — `-Zfmt-debug=shallow` (a derived `Debug` writes only the type's or
/// variant's name: the fields' formatting code is gone) and
/// `-Zlocation-detail=none` (a panic names no file, line and column: ~100
/// paths of the build machine's cargo home were in the module). 7.5 KB less
/// brotli on the lobby (docs/BENCHMARKS.md, "The lobby under 350 KB").
/// Both are unstable rustc options: `RUSTC_BOOTSTRAP=1` lets this
/// machine's one stable toolchain take them (no other toolchain can be
/// fetched here), for this build only. Nothing the site does reads a
/// `Debug` text (the pages' markup uses named keys, e.g. `ValueKind::name`).
const FRONTEND_RUSTFLAGS: [(&str, &str); 2] = [
    ("RUSTC_BOOTSTRAP", "1"),
    (
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
        "--cfg erase_components -Zfmt-debug=shallow -Zlocation-detail=none",
    ),
];

/// The site's files, final; what is left is their compressed twins (None
/// when they are made already). `run` serves before making them, the other
/// commands make them at once ([`site`]).
fn site_files() -> Result<Option<compress::Precompression>> {
    ensure_wasm_target()?;
    ensure_npm_packages()?;
    let root = root();
    let site = root.join("site");

    step("building the frontend (wasm32, size-optimised, relocations kept for splitting)");
    // `cargo rustc` passes the link flag to the final crate only: the
    // dependencies' builds are shared with `cargo build`/`clippy`.
    sh_env(
        &cargo(),
        &[
            "rustc",
            "-p",
            "frontend",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "wasm-release",
            "--target-dir",
            &wasm_target_dir().to_string_lossy(),
            "--",
            "-Clink-args=--emit-relocs",
        ],
        &FRONTEND_RUSTFLAGS,
    )?;
    let wasm = wasm_target_dir().join("wasm32-unknown-unknown/wasm-release/frontend.wasm");
    // The engine's worker module builds beside the next steps: `wasm-opt`
    // of the main module leaves a core free for most of its time.
    let mut engine = Some(build_engine_wasm()?);

    // Everything after this point is a function of these inputs and the
    // engine's module: when they are what the last complete build used, the
    // site is already built.
    let front = site_inputs(&root, &wasm)?;
    let stamp_file = site.join(".inputs");
    let old = fs::read_to_string(&stamp_file).unwrap_or_default();
    if site.join("manifest.json").is_file() && old.lines().next() == Some(front.as_str()) {
        engine.take().map_or(Ok(()), Background::wait)?;
        let stamp = format!("{front}\n{}", engine_inputs()?);
        if old == stamp {
            let twins = compress::Precompression {
                site: site.clone(),
                stamp,
            };
            if fs::read_to_string(site.join(compress::STAMP)).is_ok_and(|s| s == twins.stamp) {
                step("site unchanged since its last build (same wasm, styles, scripts and tools): kept");
                return Ok(None);
            }
            step("site unchanged since its last build; its compressed twins were left unfinished");
            return Ok(Some(twins));
        }
    }
    let _ = fs::remove_file(&stamp_file);
    let _ = fs::remove_file(site.join(compress::STAMP));

    // The Three.js bundles need only the bindings and the npm packages: they
    // are made beside the wasm steps (terser takes a few seconds of a core).
    let three_next = site.join(".three-next");
    let three = {
        let (root, dir) = (root.clone(), three_next.clone());
        std::thread::spawn(move || {
            let _ = fs::remove_dir_all(&dir);
            bundle_three(&root, &dir)
        })
    };

    let pkg = site.join("pkg");
    let _ = fs::remove_dir_all(&pkg);
    fs::create_dir_all(&pkg).map_err(|e| e.to_string())?;
    let (main_wasm, chunks, prefetch) = split_wasm(&wasm, &pkg)?;

    step("wasm-bindgen");
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&main_wasm)
        .web(true)
        .map_err(|e| e.to_string())?
        .out_name("frontend")
        .typescript(false)
        // The split chunks import the main module's functions by these names.
        .keep_lld_exports(true)
        .demangle(false)
        .generate(&pkg)
        .map_err(|e| format!("wasm-bindgen: {e}"))?;

    step("wasm-opt -Os (the main module and every chunk: one binaryen per core)");
    let bg = pkg.join("frontend_bg.wasm");
    let files: Vec<&PathBuf> = std::iter::once(&bg).chain(&chunks).collect();
    wasm_opt_batches(&root, &files)?;
    let renamed = imports::shorten(&bg, &pkg.join("frontend.js"))?;
    eprintln!("    {renamed} of the main module's imports renamed short (xtask/src/imports.rs)");

    engine.take().map_or(Ok(()), Background::wait)?;
    let stamp = format!("{front}\n{}", engine_inputs()?);
    engine_worker(&root, &pkg)?;
    offline_puzzles(&root, &pkg)?;

    minify_scripts(&root, &pkg)?;

    step("vendoring Three.js (esbuild: tree-shaken, minified bundles; terser), the CSS and the icons");
    let vendor = site.join("vendor/three");
    let _ = fs::remove_dir_all(&vendor);
    three
        .join()
        .map_err(|_| "the Three.js bundles' thread panicked".to_string())??;
    fs::create_dir_all(site.join("vendor")).map_err(|e| e.to_string())?;
    fs::rename(&three_next, &vendor).map_err(|e| format!("{}: {e}", vendor.display()))?;
    let style = site.join("style");
    let _ = fs::remove_dir_all(&style);
    for entry in fs::read_dir(root.join("style")).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if matches!(
            path.extension().and_then(OsStr::to_str),
            Some("css" | "png")
        ) {
            copy(&path, &style.join(path.file_name().unwrap_or_default()))?;
        }
    }

    step("content-hashed names (site/manifest.json, site/hash.txt)");
    hash_names(&site, &pkg, &prefetch)?;
    // Written last: an interrupted build is never taken for a complete one.
    fs::write(&stamp_file, &stamp).map_err(|e| e.to_string())?;
    Ok(Some(compress::Precompression { site, stamp }))
}

/// The SHA-256 of everything the site's files are made from after the
/// frontend's cargo build, but the engine's module ([`engine_inputs`]): the
/// frontend's wasm, the styles, the engine worker's script and weights, the
/// island's Three.js bindings, the npm lock (Three.js, wasm-opt, esbuild) and
/// this xtask itself (its steps).
fn site_inputs(root: &Path, frontend_wasm: &Path) -> Result<String> {
    let mut files: Vec<PathBuf> = vec![
        frontend_wasm.to_path_buf(),
        root.join("engine/weights/eval.bin"),
        root.join("puzzles/puzzles.jsonl"),
        root.join("engine-wasm/engine-worker.js"),
        root.join("frontend/src/three.rs"),
        root.join("package-lock.json"),
        root.join(WASM_OPT_BATCH),
        root.join(THREE_BUNDLE),
    ];
    let mut styles: Vec<PathBuf> = fs::read_dir(root.join("style"))
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    styles.sort();
    files.extend(styles);
    if let Ok(me) = std::env::current_exe() {
        files.push(me);
    }
    sha256_of(&files)
}

/// The SHA-256 of the engine's worker module (built by [`build_engine_wasm`]).
fn engine_inputs() -> Result<String> {
    sha256_of(&[engine_wasm()])
}

/// The SHA-256 of the files' names, lengths and bytes, in hex.
fn sha256_of(files: &[PathBuf]) -> Result<String> {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for file in files {
        let bytes = fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        hasher.update(file.to_string_lossy().as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The engine's worker module as cargo builds it.
fn engine_wasm() -> PathBuf {
    wasm_target_dir().join("wasm32-unknown-unknown/wasm-engine/engine_wasm.wasm")
}

/// Starts the build of the engine's worker module (engine-wasm, wasm32,
/// speed-optimised), beside the site's next steps.
fn build_engine_wasm() -> Result<Background> {
    let target = wasm_target_dir().to_string_lossy().to_string();
    Background::cargo(
        "the engine's worker module",
        "xtask-engine-build.log",
        &[
            "build",
            "-p",
            "engine-wasm",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "wasm-engine",
            "--target-dir",
            &target,
        ],
    )
}

/// Renames the site's static files to content-hashed names (see `hash.rs`)
/// and writes the two manifests the server reads at start: `manifest.json`
/// (served path → hashed path, for the page's links, import map and worker)
/// and Leptos' `hash.txt` (`js:`/`wasm:` hashes for `HydrationScripts`, with
/// `LeptosOptions::hash_files`). Leptos names the wasm `<output>.<hash>.wasm`,
/// so `frontend_bg.wasm` becomes `frontend.wasm` first (the glue does not name it).
fn hash_names(site: &Path, pkg: &Path, prefetch: &BTreeMap<String, Vec<String>>) -> Result {
    // The glue names no default wasm path (the hydration script passes it).
    if pkg.join("frontend_bg.wasm").exists() {
        fs::rename(pkg.join("frontend_bg.wasm"), pkg.join("frontend.wasm"))
            .map_err(|e| format!("rename frontend_bg.wasm: {e}"))?;
    }
    let manifest = hash::hash_site(site, &["pkg", "vendor", "style"])?;
    let hash_of = |path: &str| -> Result<String> {
        let hashed = manifest
            .get(path)
            .ok_or_else(|| format!("{path} was not hashed"))?;
        Ok(hashed.rsplit('.').nth(1).unwrap_or_default().to_string())
    };
    // wasm-split's preload manifest (lazy function → chunk stems, for the
    // server's `<link rel=preload>`s), written with the hashed stems.
    let stem = |name: &str| -> Result<String> {
        let hashed = manifest
            .get(&format!("/pkg/{name}.wasm"))
            .ok_or_else(|| format!("chunk {name}.wasm was not hashed"))?;
        Ok(hashed
            .trim_start_matches("/pkg/")
            .trim_end_matches(".wasm")
            .to_string())
    };
    let mut preloads = BTreeMap::new();
    for (split, chunks) in prefetch {
        let hashed: Result<Vec<String>> = chunks.iter().map(|c| stem(c)).collect();
        preloads.insert(split.clone(), hashed?);
    }
    let preload_json = json_map_of_lists(&preloads);
    let preload_hash = hash::content_hash(preload_json.as_bytes());
    fs::write(
        pkg.join(format!("__wasm_split_manifest.{preload_hash}.json")),
        preload_json,
    )
    .map_err(|e| e.to_string())?;
    let mut leptos = format!(
        "js: {}\nwasm: {}\n",
        hash_of("/pkg/frontend.js")?,
        hash_of("/pkg/frontend.wasm")?
    );
    // No lazy route, no loader: Leptos then looks for no split manifest.
    if let Ok(split) = hash_of(&format!("/pkg/{SPLIT_LOADER}")) {
        leptos.push_str(&format!("split: {split}\nmanifest: {preload_hash}\n"));
    }
    fs::write(site.join("hash.txt"), leptos).map_err(|e| e.to_string())?;
    fs::write(site.join("manifest.json"), hash::manifest_json(&manifest))
        .map_err(|e| e.to_string())?;
    eprintln!("    {} files renamed", manifest.len());
    Ok(())
}

/// wasm-split's loader module (the name Leptos expects; the underscores hold
/// the place of a hash).
const SPLIT_LOADER: &str = "__wasm_split.______________________.js";

/// `{"a": ["x", "y"]}`, sorted, one key a line.
fn json_map_of_lists(map: &BTreeMap<String, Vec<String>>) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let lines: Vec<String> = map
        .iter()
        .map(|(k, v)| {
            let items: Vec<String> = v.iter().map(|s| quote(s)).collect();
            format!("  {}: [{}]", quote(k), items.join(", "))
        })
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

/// Splits the app's wasm at its lazy functions (Leptos' lazy routes, marked by
/// `wasm_split_helpers`) with wasm-split: the chunks and the loader module
/// `__wasm_split.<…>.js` go to `pkg`, the main module (still to go through
/// wasm-bindgen) next to the input. Returns the main module, the chunks and
/// the preload map (lazy function → the chunks it needs).
#[allow(clippy::type_complexity)]
fn split_wasm(
    input: &Path,
    pkg: &Path,
) -> Result<(PathBuf, Vec<PathBuf>, BTreeMap<String, Vec<String>>)> {
    step("wasm-split (lazy routes into their own chunks)");
    let data = fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let main = input.with_file_name("frontend_split.wasm");
    let link = format!("./{SPLIT_LOADER}");
    let split = wasm_split_cli_support::transform({
        let mut options = wasm_split_cli_support::Options::new(&data);
        options.output_dir = pkg;
        options.main_out_path = &main;
        options.main_module = "./frontend.js";
        options.link_name = &link;
        options
    })
    .map_err(|e| format!("wasm-split: {e:#}"))?;
    let prefetch = split.prefetch_map.into_iter().collect();
    Ok((main, split.split_modules, prefetch))
}

/// The script that runs `wasm-opt -Os --strip-debug --strip-producers` on
/// many files in one node process (binaryen.js loaded once).
const WASM_OPT_BATCH: &str = "xtask/scripts/wasm-opt-batch.mjs";

/// `wasm-opt -Os` on every file, in place: the files are shared out among
/// one batch per core (largest first, each to the batch with the fewest
/// bytes so far), and each batch is one run of [`WASM_OPT_BATCH`]. The
/// site has about 200 lazy chunks, most under 1 KiB: one `wasm-opt` command
/// per file spent most of the step loading binaryen (384 s of CPU for
/// 208 files, the largest file 24 s). The output is byte-identical to the
/// command's (the script sets the same features and Stack IR options).
fn wasm_opt_batches(root: &Path, files: &[&PathBuf]) -> Result {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut sized: Vec<(u64, &PathBuf)> = files
        .iter()
        .map(|f| (fs::metadata(f).map_or(0, |m| m.len()), *f))
        .collect();
    sized.sort_by_key(|b| std::cmp::Reverse(b.0));
    let mut batches: Vec<(u64, Vec<String>)> = vec![(0, Vec::new()); cores.min(files.len()).max(1)];
    for (size, file) in sized {
        if let Some(batch) = batches.iter_mut().min_by_key(|b| b.0) {
            batch.0 += size;
            batch.1.push(file.to_string_lossy().to_string());
        }
    }
    let script = root.join(WASM_OPT_BATCH).to_string_lossy().to_string();
    on_every_core(&batches, |(_, batch)| {
        let mut args = vec![script.as_str()];
        args.extend(batch.iter().map(String::as_str));
        sh("node", &args)
    })?;
    eprintln!("    {} files in {} batches", files.len(), batches.len());
    Ok(())
}

/// The files of the engine's Web Worker under `site/pkg/`: the hand-written
/// worker script, the wasm-bindgen glue and the engine's wasm module.
const ENGINE_WORKER_FILES: [&str; 3] = ["engine-worker.js", "engine.js", "engine_bg.wasm"];

/// Builds the engine's own wasm module (the `engine-wasm` crate, optimised for
/// speed) into `pkg/engine.js` + `pkg/engine_bg.wasm`, next to the worker
/// script that loads it. No page imports these: the worker is started (and
/// fetches them) only when a hint or an offline game needs the engine.
fn engine_worker(root: &Path, pkg: &Path) -> Result {
    let wasm = engine_wasm();
    wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)
        .map_err(|e| e.to_string())?
        .out_name("engine")
        .typescript(false)
        .generate(pkg)
        .map_err(|e| format!("wasm-bindgen (engine): {e}"))?;
    let bg = pkg.join("engine_bg.wasm").to_string_lossy().to_string();
    sh(
        &root.join("node_modules/.bin/wasm-opt").to_string_lossy(),
        &[
            &bg,
            "-O3",
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-reference-types",
            "--enable-multivalue",
            "--strip-debug",
            "--strip-producers",
            "-o",
            &bg,
        ],
    )?;
    // The trained evaluation's weights, fetched by the worker the first time
    // a hint scores every move (hashed and precompressed with the rest).
    copy(&root.join("engine/weights/eval.bin"), &pkg.join("eval.bin"))?;
    copy(
        &root.join("engine-wasm/engine-worker.js"),
        &pkg.join("engine-worker.js"),
    )
}

/// The offline puzzle pack: the first [`OFFLINE_PUZZLES`] puzzles of the
/// shipped set, as they are (JSON lines), hashed and precached with the rest.
fn offline_puzzles(root: &Path, pkg: &Path) -> Result {
    let all = fs::read_to_string(root.join("puzzles/puzzles.jsonl")).map_err(|e| e.to_string())?;
    let pack: String = all
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(OFFLINE_PUZZLES)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(pkg.join("puzzles.jsonl"), pack).map_err(|e| e.to_string())
}

/// Puzzles in the offline pack.
const OFFLINE_PUZZLES: usize = 500;

/// Cargo's target folder (honours `CARGO_TARGET_DIR`).
fn target_dir() -> PathBuf {
    std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target"))
}

/// The site's two wasm builds (the frontend, the engine's worker) have a
/// target folder of their own, `target/wasm`: cargo locks a target folder
/// for the length of a build, and with one folder the native build (the
/// server, the tests) could only start once the wasm builds were done. Apart,
/// the native build runs beside the site's whole pipeline (see
/// [`Background`]). Nothing is compiled twice for it: the wasm profiles'
/// host crates (proc macros, build scripts) were never the native build's.
fn wasm_target_dir() -> PathBuf {
    target_dir().join("wasm")
}

/// Three.js addons the island may bind (`js_namespace = THREE_ADDONS`), with
/// their module under `node_modules/three/`. They are a bundle of their own,
/// `three-addons.bundle.js` (one for both backends), which the island loads
/// at the first touch of the board (the orbit controls are of no use before
/// a pointer is on it): 4.5 KB less brotli on the lobby.
const THREE_ADDONS: &[(&str, &str)] =
    &[("OrbitControls", "examples/jsm/controls/OrbitControls.js")];

/// What the addons import from `three`: the addons' bundle takes them from
/// the page's Three.js bundle (`globalThis.THREE`, one copy of each class),
/// so both backends' bundles export them too. A name an addon imports and
/// this list lacks fails the addons' bundle (esbuild: no matching export).
const THREE_ADDON_IMPORTS: &[&str] = &[
    "Controls",
    "MOUSE",
    "TOUCH",
    "Quaternion",
    "Spherical",
    "Vector2",
    "Vector3",
    "Plane",
    "Ray",
    "MathUtils",
];

/// The names `frontend/src/three.rs` binds: types declared with
/// `js_namespace = THREE` (their `js_name` when given) and with
/// `js_namespace = THREE_ADDONS`.
fn bound_three_names(source: &str) -> (Vec<String>, Vec<String>) {
    let (mut core, mut addons) = (Vec::new(), Vec::new());
    let mut attribute = "";
    for line in source.lines().map(str::trim) {
        if line.starts_with("#[wasm_bindgen(") {
            attribute = line;
            continue;
        }
        let Some(name) = line
            .strip_prefix("pub type ")
            .and_then(|rest| rest.strip_suffix(';'))
        else {
            continue;
        };
        let setting = |key: &str| {
            attribute.split(['(', ',', ')']).find_map(|part| {
                let (k, v) = part.split_once('=')?;
                (k.trim() == key).then(|| v.trim().to_string())
            })
        };
        let exported = setting("js_name").unwrap_or_else(|| name.to_string());
        match setting("js_namespace").as_deref() {
            Some("THREE") => core.push(exported),
            Some("THREE_ADDONS") => addons.push(exported),
            _ => {}
        }
    }
    (core, addons)
}

/// Bundles exactly the Three.js classes the island binds (plus its addons) into
/// ES modules with esbuild, tree-shaken and minified: one per backend,
/// `three.bundle.js` (WebGPU) and `three-webgl.bundle.js` (WebGL 2). A page
/// loads one of them (the island asks for a WebGPU adapter first), so it no
/// longer carries the other backend's code: 20 KB less brotli on WebGPU and
/// 27 KB less on WebGL 2 than one bundle with both (docs/BENCHMARKS.md).
/// Before any of this, the page loaded three.webgpu.js, three.core.js,
/// three.tsl.js and OrbitControls.js unminified (3.9 MB, ~770 KB gzip).
///
/// The bundles are made from Three.js' sources, and their `WebGPURenderer` is
/// the one of [`three_entry`]: Three's own registers every material, light and
/// tone mapping it has (its `StandardNodeLibrary`), so none of them could be
/// left out; this one knows only the bound ones (12 KB less brotli). The
/// renderer's XR manager, PMREM generator and timestamp-query pools, which
/// the board never uses but the renderer's constructor names, are stubbed
/// out by [`THREE_BUNDLE`] (7 KB less brotli), which also compresses
/// esbuild's minified output again with terser (7 KB less).
fn bundle_three(root: &Path, vendor: &Path) -> Result {
    // Each bundle is ~4 s of terser: the two side by side (the addons' is small).
    on_every_core(
        &[Some(ThreeBackend::WebGpu), Some(ThreeBackend::WebGl), None],
        |backend| bundle_three_for(root, vendor, *backend),
    )?;
    copy(
        &root.join("node_modules/three/LICENSE"),
        &vendor.join("LICENSE"),
    )
}

/// The script that bundles Three.js with esbuild (tree-shaken, minified, then
/// compressed again by terser), the renderer's unused XR, PMREM and
/// timestamp-query parts stubbed out.
const THREE_BUNDLE: &str = "xtask/scripts/three-bundle.mjs";

/// The addons' bundle under `vendor/three/` (before content hashing); the
/// page's import map names it `three/addons`.
const THREE_ADDONS_FILE: &str = "three-addons.bundle.js";

/// Which backend a Three.js bundle's `WebGPURenderer` drives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ThreeBackend {
    WebGpu,
    WebGl,
}

impl ThreeBackend {
    /// The bundle's file under `vendor/three/` (before content hashing).
    fn file_name(self) -> &'static str {
        match self {
            ThreeBackend::WebGpu => "three.bundle.js",
            ThreeBackend::WebGl => "three-webgl.bundle.js",
        }
    }

    /// The backend's name for [`THREE_BUNDLE`].
    fn script_name(self) -> &'static str {
        match self {
            ThreeBackend::WebGpu => "webgpu",
            ThreeBackend::WebGl => "webgl",
        }
    }

    /// The backend class and its module under Three's `src/`.
    fn class_and_path(self) -> (&'static str, &'static str) {
        match self {
            ThreeBackend::WebGpu => ("WebGPUBackend", "renderers/webgpu/WebGPUBackend.js"),
            ThreeBackend::WebGl => ("WebGLBackend", "renderers/webgl-fallback/WebGLBackend.js"),
        }
    }
}

/// One of the Three.js bundles: a backend's (`Some`), or the addons' (`None`).
fn bundle_three_for(root: &Path, vendor: &Path, backend: Option<ThreeBackend>) -> Result {
    let bindings = root.join("frontend/src/three.rs");
    let source =
        fs::read_to_string(&bindings).map_err(|e| format!("read {}: {e}", bindings.display()))?;
    let (mut core, addons) = bound_three_names(&source);
    if core.is_empty() {
        return Err(format!(
            "no Three.js bindings found in {}",
            bindings.display()
        ));
    }
    let (entry, file_name, script_name) = match backend {
        Some(backend) => {
            if !addons.is_empty() {
                for name in THREE_ADDON_IMPORTS {
                    if !core.iter().any(|n| n == name) {
                        core.push(name.to_string());
                    }
                }
            }
            let entry = three_entry(&core, backend, |path| root.join(path).exists())?;
            (entry, backend.file_name(), backend.script_name())
        }
        None => {
            let mut entry = String::new();
            for name in &addons {
                let module = THREE_ADDONS
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, m)| *m)
                    .ok_or_else(|| {
                        format!("unknown Three.js addon `{name}` (add it to THREE_ADDONS)")
                    })?;
                entry.push_str(&format!(
                    "export {{ {name} }} from './node_modules/three/{module}';\n"
                ));
            }
            (entry, THREE_ADDONS_FILE, "addons")
        }
    };
    fs::create_dir_all(vendor).map_err(|e| e.to_string())?;
    let out = vendor.join(file_name);
    let mut child = command("node")
        .arg(root.join(THREE_BUNDLE))
        .arg(script_name)
        .arg(&out)
        .arg(THREE_ADDON_IMPORTS.join(","))
        .current_dir(root)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start node {THREE_BUNDLE}: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("three-bundle: no stdin")?
        .write_all(entry.as_bytes())
        .map_err(|e| e.to_string())?;
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("{THREE_BUNDLE} failed ({status})"));
    }
    eprintln!(
        "    {file_name}: {}",
        match backend {
            Some(_) => format!("{} names from three", core.len()),
            None => format!("addons {}", addons.join(", ")),
        }
    );
    Ok(())
}

/// The bundle's entry module: the bound core classes from Three's sources, and
/// a `WebGPURenderer` on one backend (`backend`; Three's own carries both and
/// falls back from WebGPU to WebGL 2 itself — here the island picks the
/// bundle, `frontend/src/three.rs`) whose node library maps only the bound
/// materials (`Mesh…Material` → its `Mesh…NodeMaterial`) and lights
/// (`…Light` → its `…LightNode`). A material or light bound later in three.rs
/// is mapped the same way; `exists` checks that Three has the node class for
/// it.
fn three_entry(
    core: &[String],
    backend: ThreeBackend,
    exists: impl Fn(&str) -> bool,
) -> Result<String> {
    const SRC: &str = "./node_modules/three/src";
    let mut out = String::new();
    let classes: Vec<&str> = core
        .iter()
        .map(String::as_str)
        .filter(|n| *n != "WebGPURenderer")
        .collect();
    out.push_str(&format!(
        "import {{ {} }} from '{SRC}/Three.Core.js';\nexport {{ {} }};\n",
        classes.join(", "),
        classes.join(", ")
    ));
    if !core.iter().any(|n| n == "WebGPURenderer") {
        return Ok(out);
    }
    let (backend_class, backend_path) = backend.class_and_path();
    for (name, path) in [
        ("Renderer", "renderers/common/Renderer.js"),
        (backend_class, backend_path),
        ("NodeLibrary", "renderers/common/nodes/NodeLibrary.js"),
    ] {
        out.push_str(&format!("import {name} from '{SRC}/{path}';\n"));
    }
    let mut library = String::new();
    for name in &classes {
        let (node, path) = if name.starts_with("Mesh") && name.ends_with("Material") {
            let node = format!("{}NodeMaterial", name.trim_end_matches("Material"));
            let path = format!("materials/nodes/{node}.js");
            library.push_str(&format!("    this.addMaterial({node}, '{name}');\n"));
            (node, path)
        } else if name.ends_with("Light") && *name != "Light" {
            let node = format!("{name}Node");
            let path = format!("nodes/lighting/{node}.js");
            out.push_str(&format!("{name}.registerNode({node});\n"));
            (node, path)
        } else {
            continue;
        };
        let file = format!("{SRC}/{path}");
        if !exists(file.trim_start_matches("./")) {
            return Err(format!(
                "Three.js has no {node} ({file}) for the bound {name}"
            ));
        }
        out.push_str(&format!("import {node} from '{file}';\n"));
    }
    out.push_str(&format!(
        "class BoardNodeLibrary extends NodeLibrary {{
  constructor() {{
    super();
{library}  }}
}}
class WebGPURenderer extends Renderer {{
  constructor(parameters = {{}}) {{
    super(new {backend_class}(parameters), parameters);
    this.library = new BoardNodeLibrary();
    this.isWebGPURenderer = true;
  }}
}}
export {{ WebGPURenderer }};
"
    ));
    Ok(out)
}

/// Minifies one ES module in place (no bundling: its imports stay as they
/// are, and so do its exports and string literals, such as the loader's name
/// that the hashing step rewrites). wasm-bindgen writes its glue readable:
/// minified, the lobby's glue and loader are 2.5 KB smaller on the wire.
/// Minifies the wasm-bindgen glue, the split loader and the island's inline
/// JS snippets (which the lobby loads) in place.
fn minify_scripts(root: &Path, pkg: &Path) -> Result {
    step("minifying the wasm-bindgen glue, the split loader and the inline snippets (esbuild)");
    for name in ["frontend.js", SPLIT_LOADER] {
        let file = pkg.join(name);
        if file.exists() {
            minify_js(root, &file)?;
        }
    }
    // The island's few lines of JS (`inline_js`), which the lobby loads.
    let mut snippets = Vec::new();
    if pkg.join("snippets").is_dir() {
        compress::files_under(&pkg.join("snippets"), &mut snippets)?;
    }
    for file in snippets
        .iter()
        .filter(|f| f.extension() == Some(OsStr::new("js")))
    {
        minify_js(root, file)?;
    }
    Ok(())
}

fn minify_js(root: &Path, file: &Path) -> Result {
    let esbuild = root.join("node_modules/.bin/esbuild");
    let path = file.to_string_lossy().to_string();
    sh(
        &esbuild.to_string_lossy(),
        &[
            &path,
            "--minify",
            "--format=esm",
            "--target=es2022",
            "--legal-comments=none",
            // wasm-bindgen lists the split loader once per import in one
            // object literal (harmless duplicate keys).
            "--log-level=error",
            "--allow-overwrite",
            &format!("--outfile={path}"),
        ],
    )
}

fn copy(from: &Path, to: &Path) -> Result {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("copy {} -> {}: {e}", from.display(), to.display()))
}

/// Runs `work` on every item, on as many threads as the machine has cores
/// (each takes the next item when done: the largest, first in the list,
/// does not hold the others up); the first failure is the answer.
fn on_every_core<T: Sync>(items: &[T], work: impl Fn(&T) -> Result + Sync) -> Result {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(items.len()).max(1))
            .map(|_| {
                scope.spawn(|| -> Result {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return Ok(());
                        };
                        work(item)?;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a worker thread panicked".into()))
            })
            .collect::<Result<Vec<()>>>()
            .map(|_| ())
    })
}

fn build(release: bool) -> Result {
    let mut args = vec!["build", "-p", "server", "--bin", "othello-server"];
    if release {
        args.push("--release");
    }
    let native = Background::cargo("the server", "xtask-native-build.log", &args)?;
    site_beside(native)
}

/// A native cargo build running beside the site's steps (its own target
/// folder, see [`wasm_target_dir`]): on two cores the site has long stretches
/// on one core (the frontend's final LTO crate, `wasm-opt` of the main
/// module), which the native build fills. Its output goes to a log,
/// printed if it fails.
struct Background {
    what: &'static str,
    child: std::process::Child,
    log: PathBuf,
    started: Instant,
}

impl Background {
    fn cargo(what: &'static str, log: &str, args: &[&str]) -> Result<Background> {
        let log = target_dir().join(log);
        fs::create_dir_all(target_dir()).map_err(|e| e.to_string())?;
        let out = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let child = command(&cargo())
            .args(args)
            .current_dir(root())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start cargo: {e}"))?;
        eprintln!(
            "    {what}: building beside the site (cargo {}; log: {})",
            args.join(" "),
            log.display()
        );
        Ok(Background {
            what,
            child,
            log,
            started: Instant::now(),
        })
    }

    /// Waits for the build; its log's end is printed when it failed.
    fn wait(mut self) -> Result {
        step(&format!(
            "waiting for {} (building beside the site)",
            self.what
        ));
        let status = self.child.wait().map_err(|e| e.to_string())?;
        eprintln!(
            "    {} built in {:.1}s from its start",
            self.what,
            self.started.elapsed().as_secs_f64()
        );
        if status.success() {
            return Ok(());
        }
        let log = fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        for line in &lines[lines.len().saturating_sub(200)..] {
            eprintln!("{line}");
        }
        Err(format!("building {} failed ({status})", self.what))
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        // Left unawaited (the site failed): stop it rather than leave it
        // holding the target folder's lock.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The site, with `native` building beside it; both must succeed.
fn site_beside(native: Background) -> Result {
    compress_now(site_files_beside(native)?)
}

/// The site's files with `native` building beside them; both must succeed.
/// The compressed twins are left to the caller ([`site_files`]).
fn site_files_beside(native: Background) -> Result<Option<compress::Precompression>> {
    let site = site_files();
    let native = native.wait();
    let twins = site?;
    native.map(|()| twins)
}

/// The native build `cargo xtask test` uses: the workspace's tests and
/// binaries in the dev profile (the engine at opt-level 3, see Cargo.toml).
/// `run` builds exactly this, so a following `test` rebuilds nothing, and a
/// `run` after `test` starts at once.
const TEST_BUILD: &[&str] = &["test", "--workspace", "--exclude", "frontend", "--no-run"];

/// What serving needs of [`TEST_BUILD`]: the server's binary, built in
/// the same profile and with the same features (every native crate of the
/// workspace selected, dev-dependencies included), by building one of its
/// integration tests, which links the binary. The other test binaries wait.
const SERVER_FOR_TESTS: &[&str] = &[
    "test",
    "--workspace",
    "--exclude",
    "frontend",
    "--no-run",
    "--test",
    "static_files",
];

/// What `cargo xtask test` checks with clippy, as one shell line per step:
/// the native crates (all targets), then the frontend for wasm32.
const CLIPPY_NATIVE: &[&str] = &[
    "clippy",
    "--workspace",
    "--exclude",
    "frontend",
    "--all-targets",
    "--",
    "-D",
    "warnings",
];
const CLIPPY_WASM: &[&str] = &[
    "clippy",
    "-p",
    "frontend",
    "--target",
    "wasm32-unknown-unknown",
    "--",
    "-D",
    "warnings",
];

/// [`TEST_BUILD`] and then the two clippy checks of `cargo xtask test`, one
/// after the other at the lowest priority, output in
/// `target/run-test-build.log`; None when the log cannot be written (the
/// tests then build on `cargo xtask test`, as before). From a fresh clone
/// clippy's first check of every crate took 182 s of `test`'s time; done
/// here, while the site is looked at, `test` finds it done. The commands stay
/// in the terminal's process group, so Ctrl-C stops them with the server.
fn build_tests_in_background() -> Option<TestPrep> {
    let log_path = target_dir().join("run-test-build.log");
    let log = fs::File::create(&log_path).ok()?;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let current = std::sync::Arc::new(std::sync::Mutex::new(None::<std::process::Child>));
    let (stop_flag, running) = (stop.clone(), current.clone());
    let thread = std::thread::spawn(move || {
        use std::sync::atomic::Ordering;
        for args in [TEST_BUILD, CLIPPY_NATIVE, CLIPPY_WASM] {
            let (Ok(out), Ok(err)) = (log.try_clone(), log.try_clone()) else {
                return;
            };
            let Ok(mut slot) = running.lock() else { return };
            if stop_flag.load(Ordering::SeqCst) {
                return;
            }
            let spawned = command("nice")
                .args(["-n", "19", &cargo()])
                .args(args)
                .current_dir(root())
                .stdout(out)
                .stderr(err)
                .spawn();
            let Ok(child) = spawned else { return };
            *slot = Some(child);
            drop(slot);
            // Wait, letting `TestPrep::stop` take the lock to kill it.
            loop {
                std::thread::sleep(Duration::from_millis(200));
                let Ok(mut slot) = running.lock() else { return };
                match slot.as_mut().map(|c| c.try_wait()) {
                    Some(Ok(None)) => continue,
                    Some(Ok(Some(status))) if status.success() => {
                        *slot = None;
                        break;
                    }
                    // Failed, killed or gone: the rest is left to `test`.
                    _ => return,
                }
            }
        }
    });
    eprintln!(
        "    the test binaries and clippy's checks build meanwhile at low priority (log: {})",
        log_path.display()
    );
    Some(TestPrep {
        stop,
        current,
        thread,
    })
}

/// `run`'s background preparation of `test` (see [`build_tests_in_background`]).
struct TestPrep {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    current: std::sync::Arc<std::sync::Mutex<Option<std::process::Child>>>,
    thread: std::thread::JoinHandle<()>,
}

impl TestPrep {
    /// Stops the step running now (cargo keeps what it finished) and the rest.
    fn stop(self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Ok(mut slot) = self.current.lock() {
            if let Some(child) = slot.as_mut() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        let _ = self.thread.join();
    }
}

fn run(args: &[String]) -> Result {
    let (ours, server_args) = match args.iter().position(|a| a == "--") {
        Some(split) => (&args[..split], &args[split + 1..]),
        None => (args, &[][..]),
    };
    let release = ours.iter().any(|a| a == "--release");
    let house_bots = !ours.iter().any(|a| a == "--no-house-bots");
    let mut twins = None;
    let binary = if release {
        build(true)?;
        target_dir().join("release/othello-server")
    } else {
        // The test command's build of the server, shared with `cargo xtask
        // test`, beside the site; the files' compressed twins are made
        // while it serves (`compress.rs`).
        twins = site_files_beside(Background::cargo(
            "the server",
            "xtask-native-build.log",
            SERVER_FOR_TESTS,
        )?)?;
        target_dir().join("debug/othello-server")
    };
    // The test binaries compile while the site is served, at the lowest
    // priority, so that a `cargo xtask test` after this `run` finds them
    // built; stopped with the server (cargo keeps what it finished).
    let mut rest = (!release).then(build_tests_in_background).flatten();
    let args: Vec<&str> = server_args.iter().map(String::as_str).collect();
    step("starting the server (Ctrl-C stops it)");
    let server = Command::new(&binary)
        .args(&args)
        .current_dir(root())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()));
    if let (Ok(_), Some(twins)) = (&server, twins) {
        eprintln!(
            "    the files' gzip and brotli twins are made meanwhile (sent as they are until then)"
        );
        std::thread::spawn(move || {
            if let Err(e) = twins.run() {
                eprintln!("xtask run: precompressing failed: {e} (files are sent uncompressed)");
            }
        });
    }
    // The site's own bots, through the Bot API (deploy/house-bots.sh).
    let bots = (server.is_ok() && house_bots)
        .then(|| house::HouseBots::start(binary.clone(), server_args.to_vec()));
    let status = server.and_then(|mut child| child.wait().map_err(|e| format!("the server: {e}")));
    if let Some(bots) = bots {
        bots.stop();
    }
    if let Some(rest) = rest.take() {
        rest.stop();
    }
    let status = status?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("server exited with {status}"))
    }
}

fn test(playwright_args: &[String]) -> Result {
    let root = root();
    let started = Instant::now();
    // The native test binaries build beside the site (nothing to do after a
    // `run` that already built them, or when nothing changed).
    site_beside(Background::cargo(
        "the test binaries",
        "xtask-native-build.log",
        TEST_BUILD,
    )?)?;
    step("cargo fmt --check");
    sh(&cargo(), &["fmt", "--all", "--check"])?;
    step("long files say why (over 600 lines: a reason line at the top)");
    let long = lengths::offenders(&root)?;
    if !long.is_empty() {
        for (name, count) in &long {
            eprintln!("    {name}: {count} lines and no \"Over 600 lines: …\" reason near its top");
        }
        return Err(format!("{} long file(s) without a reason line", long.len()));
    }
    step("cargo test (workspace, native crates; the test binaries side by side)");
    // Built just above: the limit is for running, with room for a slow
    // machine (a whole run takes about two minutes here).
    testrun::run(
        &["--workspace", "--exclude", "frontend"],
        Duration::from_secs(25 * 60),
    )?;
    step("cargo clippy (native crates, all targets; frontend for wasm32)");
    sh(&cargo(), CLIPPY_NATIVE)?;
    sh(&cargo(), CLIPPY_WASM)?;
    step("deploy kit checks (systemd unit, nginx config)");
    sh("bash", &["deploy/verify.sh"])?;
    // `cargo test` built the server binary for its integration tests; the
    // browser suite reuses it (a plain `cargo build` would rebuild the server
    // with other features).
    let server = target_dir().join("debug/othello-server");
    if !server.exists() {
        step("building the server for the browser suite");
        sh(
            &cargo(),
            &["build", "-p", "server", "--bin", "othello-server"],
        )?;
    }
    // The engine's command (the house bots' bridges in bots.spec.ts), which
    // `cargo test` built for engine-cli's own tests.
    let othello = target_dir().join("debug/othello");
    if !othello.exists() {
        step("building othello (the engine's command) for the browser suite");
        sh(&cargo(), &["build", "-p", "engine-cli", "--bin", "othello"])?;
    }
    ensure_chromium()?;
    step("browser suite (Playwright + Debian Chromium: WebGPU and WebGL 2)");
    fs::create_dir_all(root.join("test-results")).map_err(|e| e.to_string())?;
    let server = server.to_string_lossy().to_string();
    let othello = othello.to_string_lossy().to_string();
    let mut args = vec!["test"];
    args.extend(playwright_args.iter().map(String::as_str));
    sh_env(
        &root.join("node_modules/.bin/playwright").to_string_lossy(),
        &args,
        &[("OTHELLO_SERVER_BIN", &server), ("OTHELLO_BIN", &othello)],
    )?;
    end_step();
    // The lobby's bytes as the perf spec measured them (WebGPU run).
    let perf = fs::read_to_string(root.join("test-results/webgpu/perf.json")).unwrap_or_default();
    if let Some(bytes) = perf
        .split_once("\"jsWasmEncodedBytes\":")
        .and_then(|(_, rest)| rest.split(',').next())
    {
        eprintln!("the lobby's JS + wasm on the wire: {} bytes", bytes.trim());
    }
    eprintln!(
        "all tests passed in {:.0}s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offline_pack_is_the_servers_unrated_pack() {
        // The server never serves these for rating (server/src/puzzles.rs).
        let server = include_str!("../../server/src/puzzles.rs");
        assert!(
            server.contains(&format!(
                "pub const OFFLINE_PACK: usize = {OFFLINE_PUZZLES};"
            )),
            "xtask's OFFLINE_PUZZLES and the server's OFFLINE_PACK differ"
        );
    }

    #[test]
    fn the_bundle_exports_what_three_rs_binds() {
        let source = include_str!("../../frontend/src/three.rs");
        let (core, addons) = bound_three_names(source);
        for name in [
            "WebGPURenderer",
            "EventDispatcher",
            "Mesh",
            "Raycaster",
            "Euler",
        ] {
            assert!(
                core.iter().any(|n| n == name),
                "{name} missing from {core:?}"
            );
        }
        assert_eq!(addons, ["OrbitControls"]);
        assert!(!core.iter().any(|n| n == "OrbitControls"));
    }

    #[test]
    fn the_renderer_knows_exactly_the_bound_materials_and_lights() {
        let names: Vec<String> = [
            "Mesh",
            "Light",
            "Material",
            "DirectionalLight",
            "MeshStandardMaterial",
            "WebGPURenderer",
        ]
        .map(String::from)
        .to_vec();
        let entry = three_entry(&names, ThreeBackend::WebGpu, |_| true).expect("entry");
        assert!(
            entry.contains("this.addMaterial(MeshStandardNodeMaterial, 'MeshStandardMaterial');")
        );
        assert!(entry.contains("DirectionalLight.registerNode(DirectionalLightNode);"));
        assert!(entry.contains("import DirectionalLightNode from './node_modules/three/src/nodes/lighting/DirectionalLightNode.js';"));
        assert!(!entry
            .contains("LightNode from './node_modules/three/src/nodes/lighting/LightNode.js'"));
        assert!(!entry.contains("addMaterial(NodeMaterial"));
        assert!(entry
            .contains("export { Mesh, Light, Material, DirectionalLight, MeshStandardMaterial };"));
        assert!(entry.contains("export { WebGPURenderer };"));
        // One backend per bundle: the WebGPU one has no WebGL 2 code, and
        // the other way round.
        assert!(entry.contains("super(new WebGPUBackend(parameters), parameters);"));
        assert!(!entry.contains("WebGLBackend"));
        let webgl = three_entry(&names, ThreeBackend::WebGl, |_| true).expect("entry");
        assert!(webgl.contains(
            "import WebGLBackend from './node_modules/three/src/renderers/webgl-fallback/WebGLBackend.js';"
        ));
        assert!(!webgl.contains("WebGPUBackend"));
        // A bound material Three has no node class for is an error.
        let missing = three_entry(&names, ThreeBackend::WebGl, |path| {
            !path.contains("DirectionalLightNode")
        });
        assert!(missing.is_err_and(|e| e.contains("DirectionalLightNode")));
        // Every class this repository binds has its node class in Three.
        let (core, _) = bound_three_names(include_str!("../../frontend/src/three.rs"));
        let root = root();
        for backend in [ThreeBackend::WebGpu, ThreeBackend::WebGl] {
            three_entry(&core, backend, |path| root.join(path).exists())
                .expect("the bound classes' nodes exist");
        }
    }
}
