//! The site's last step: a gzip and a brotli twin of every static file, which
//! the server's `ServeDir` sends to browsers that accept them.
//!
//! `cargo xtask run` starts the server before this step (it takes ~20 s of
//! both cores from a fresh clone): until a file's twins exist the server sends
//! it as it is, and each twin appears whole (written beside it, then renamed),
//! so a request never gets half a file. `site/.compressed` records the inputs
//! of the last complete step, as `site/.inputs` does for the files themselves:
//! a `test` after a `run` that was stopped early redoes only this step.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::{on_every_core, Result};

/// The file that names the inputs the twins were made from.
pub const STAMP: &str = ".compressed";

/// What is left to do once the site's files are final: their twins.
pub struct Precompression {
    /// The site folder (`site/`).
    pub site: PathBuf,
    /// The inputs' stamp (`site/.inputs`), written to [`STAMP`] when done.
    pub stamp: String,
}

impl Precompression {
    /// Writes every twin, prints the sizes, then the stamp.
    pub fn run(self) -> Result {
        let started = Instant::now();
        let _ = fs::remove_file(self.site.join(STAMP));
        let mut files = Vec::new();
        for dir in ["pkg", "vendor", "style"] {
            let dir = self.site.join(dir);
            if dir.is_dir() {
                files_under(&dir, &mut files)?;
            }
        }
        let total = std::sync::Mutex::new((0u64, 0u64, 0u64));
        on_every_core(&files, |file| {
            let sizes = precompress(file)?;
            let mut total = total.lock().map_err(|_| "a compressing thread failed")?;
            total.0 += sizes.0;
            total.1 += sizes.1;
            total.2 += sizes.2;
            Ok(())
        })?;
        let total = total
            .into_inner()
            .map_err(|_| "a compressing thread failed")?;
        self.report(total);
        eprintln!(
            "    {} files precompressed in {:.1}s",
            files.len(),
            started.elapsed().as_secs_f64()
        );
        // Written last: an interrupted step is never taken for a complete one.
        fs::write(self.site.join(STAMP), &self.stamp).map_err(|e| e.to_string())
    }

    /// The site's and the main wasm's sizes, the lazy chunks' and the engine
    /// worker's.
    fn report(&self, total: (u64, u64, u64)) {
        let pkg = self.site.join("pkg");
        let manifest = fs::read_to_string(self.site.join("manifest.json")).unwrap_or_default();
        let hashed = |name: &str| {
            let key = format!("\"/pkg/{name}\": \"/pkg/");
            manifest
                .split_once(&key)
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(file, _)| file.to_string())
                .unwrap_or_default()
        };
        let len = |path: PathBuf| fs::metadata(path).map_or(0, |m| m.len());
        // The lazy chunks: how many, their bytes, and the largest (a route's
        // own code; most of the rest are a few hundred bytes shared between routes).
        let mut chunks: Vec<(u64, String)> = fs::read_dir(&pkg)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| {
                n.ends_with(".wasm.br") && !n.starts_with("frontend.") && !n.starts_with("engine")
            })
            .map(|n| (len(pkg.join(&n)), n))
            .collect();
        chunks.sort_by(|a, b| b.cmp(a));
        let largest: Vec<String> = chunks
            .iter()
            .take(6)
            .map(|(size, n)| format!("{} {} KiB", n.split('.').next().unwrap_or(n), size / 1024))
            .collect();
        eprintln!(
            "    lazy chunks (brotli): {} files, {} KiB in all; largest: {}",
            chunks.len(),
            chunks.iter().map(|c| c.0).sum::<u64>() / 1024,
            largest.join(", ")
        );
        let wasm = hashed("frontend.wasm");
        eprintln!(
            "    site: {} KiB raw, {} KiB gzip, {} KiB brotli; wasm {} KiB raw, {} KiB gzip, {} KiB brotli",
            total.0 / 1024,
            total.1 / 1024,
            total.2 / 1024,
            len(pkg.join(&wasm)) / 1024,
            len(pkg.join(format!("{wasm}.gz"))) / 1024,
            len(pkg.join(format!("{wasm}.br"))) / 1024
        );
        let worker: u64 = crate::ENGINE_WORKER_FILES
            .iter()
            .map(|f| len(pkg.join(format!("{}.gz", hashed(f)))))
            .sum();
        eprintln!(
            "    engine worker (loaded on demand): {} KiB gzip",
            worker / 1024
        );
    }
}

/// The suffix of a twin being written (renamed when whole).
const PART: &str = ".part";

/// Every file under `dir` but the compressed twins (and any half-written one
/// an interrupted step left), largest first (so the longest job starts first).
pub fn files_under(dir: &Path, files: &mut Vec<PathBuf>) -> Result {
    for entry in fs::read_dir(dir).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            files_under(&path, files)?;
        } else if path.to_string_lossy().ends_with(PART) {
            let _ = fs::remove_file(&path);
        } else if !matches!(path.extension().and_then(OsStr::to_str), Some("gz" | "br")) {
            files.push(path);
        }
    }
    files.sort_by_key(|f| std::cmp::Reverse(fs::metadata(f).map_or(0, |m| m.len())));
    Ok(())
}

/// Writes `bytes` to `path` whole: to a `.part` file beside it, then renamed.
fn write_whole(path: &Path, suffix: &str, bytes: &[u8]) -> Result {
    let mut name = path.to_path_buf().into_os_string();
    name.push(suffix);
    let target = PathBuf::from(name);
    let mut part = target.clone().into_os_string();
    part.push(PART);
    let part = PathBuf::from(part);
    fs::write(&part, bytes).map_err(|e| format!("{}: {e}", part.display()))?;
    fs::rename(&part, &target).map_err(|e| format!("{}: {e}", target.display()))
}

/// Writes a `.gz` and a `.br` twin of `path`; its (raw, gzip, brotli) sizes.
fn precompress(path: &Path) -> Result<(u64, u64, u64)> {
    let data = fs::read(path).map_err(|e| e.to_string())?;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&data).map_err(|e| e.to_string())?;
    let gzip = encoder.finish().map_err(|e| e.to_string())?;
    write_whole(path, ".gz", &gzip)?;
    // Brotli at its best setting, for browsers that accept `br` (all
    // current ones over HTTPS and on localhost): ~15–20 % under gzip.
    let mut brotli = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut data.as_slice(), &mut brotli, &params)
        .map_err(|e| e.to_string())?;
    write_whole(path, ".br", &brotli)?;
    Ok((data.len() as u64, gzip.len() as u64, brotli.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_are_whole_and_half_written_ones_are_swept() {
        let dir = std::env::temp_dir().join(format!("xtask-compress-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("pkg/snippets")).unwrap();
        let text = "const board = 'othello';\n".repeat(200);
        fs::write(dir.join("pkg/app.js"), &text).unwrap();
        fs::write(dir.join("pkg/snippets/a.js"), "x").unwrap();
        // What an interrupted step leaves: a half-written twin.
        fs::write(dir.join("pkg/app.js.br.part"), "half").unwrap();
        let job = Precompression {
            site: dir.clone(),
            stamp: "inputs-1".into(),
        };
        job.run().unwrap();
        assert_eq!(fs::read_to_string(dir.join(STAMP)).unwrap(), "inputs-1");
        assert!(!dir.join("pkg/app.js.br.part").exists());
        let mut br = Vec::new();
        brotli::BrotliDecompress(
            &mut fs::read(dir.join("pkg/app.js.br")).unwrap().as_slice(),
            &mut br,
        )
        .unwrap();
        assert_eq!(br, text.as_bytes());
        let gz = fs::read(dir.join("pkg/app.js.gz")).unwrap();
        let mut unzipped = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(gz.as_slice()),
            &mut unzipped,
        )
        .unwrap();
        assert_eq!(unzipped, text);
        assert!(dir.join("pkg/snippets/a.js.br").exists());
        // The twins are not compressed again.
        let mut files = Vec::new();
        files_under(&dir.join("pkg"), &mut files).unwrap();
        assert_eq!(files.len(), 2, "{files:?}");
        let _ = fs::remove_dir_all(&dir);
    }
}
