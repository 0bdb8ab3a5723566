//! The engine side of `othello bot`: the engine as a child process
//! speaking NBoard (`nboard 2`, `set depth`, `set game <GGF>`, `go`, and
//! its `=== <move>` answer), the game as GGF, and the time a move may take.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The engine, a child process speaking NBoard.
pub(super) struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub(super) fn start(command: &[String]) -> Result<Engine, String> {
        let (program, args) = command.split_first().ok_or("no engine")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the engine {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("the engine has no input")?;
        let stdout = child.stdout.take().ok_or("the engine has no output")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.send("nboard 2")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine is gone: {e}"))
    }

    pub(super) fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The engine's move for `ggf` at `depth`, awaited until `deadline`:
    /// `Ok(None)` when it did not answer in time.
    pub(super) fn best_move(
        &mut self,
        ggf: &str,
        depth: u32,
        deadline: Instant,
    ) -> Result<Option<String>, String> {
        // Anything left from before is stale.
        while self.lines.try_recv().is_ok() {}
        self.send(&format!("set depth {depth}"))?;
        self.send(&format!("set game {ggf}"))?;
        self.send("go")?;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(answer) = line.trim().strip_prefix("===") {
                        let square = answer.trim().split('/').next().unwrap_or("").trim();
                        return Ok(Some(square.to_ascii_lowercase()));
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine stopped".into()),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A game as GGF, for the engine's `set game`: the start (`X`/`O`/`-`
/// cells, black to move) and the moves so far (`pass` for a pass).
pub fn ggf(start: &str, moves: &str) -> String {
    let board: String = start
        .chars()
        .map(|c| match c {
            'X' => '*',
            'O' => 'O',
            _ => '-',
        })
        .collect();
    let mut text = format!("(;GM[Othello]PC[Othello3D]TY[8]BO[8 {board} *]");
    for (i, mv) in moves.split_whitespace().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let mv = if mv == "pass" {
            "PA".to_string()
        } else {
            mv.to_ascii_uppercase()
        };
        text.push_str(&format!("{colour}[{mv}]"));
    }
    text.push_str(";)");
    text
}

/// The search depth for the time the bot may spend on this move (ms).
pub fn depth_for(think_ms: i64) -> u32 {
    match think_ms {
        ..300 => 2,
        300..1_000 => 4,
        1_000..3_000 => 6,
        3_000..8_000 => 8,
        _ => 10,
    }
}

/// The time for this move and the latest moment to answer, from the time
/// the bot has left (`None`: untimed) and the empty squares.
pub fn budget(left_ms: Option<i64>, empties: usize) -> (i64, Duration) {
    match left_ms {
        None => (10_000, Duration::from_secs(120)),
        Some(left) => {
            let moves_to_come = (empties as i64 / 2).max(4);
            let think = left / moves_to_come;
            // Answer a second and a half before the flag (less when the
            // clock is nearly out), whatever the engine does.
            let hard = (left - 1_500).max(left / 2).max(100);
            (think, Duration::from_millis(hard as u64))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_handed_to_the_engine_as_ggf_with_passes() {
        let start = format!("{}OX{}XO{}", "-".repeat(27), "-".repeat(6), "-".repeat(27));
        let text = ggf(&start, "f5 d6 pass c3");
        assert!(text.starts_with("(;GM[Othello]"), "{text}");
        assert!(text.contains("B[F5]W[D6]B[PA]W[C3];)"), "{text}");
        let (position, moves) = crate::nboard::parse_ggf(&ggf(&start, "f5 d6")).expect("parses");
        assert_eq!(position, ::engine::Position::initial());
        assert_eq!(moves.len(), 2);
    }

    #[test]
    fn the_clock_sets_the_depth_and_the_last_moment_to_answer() {
        assert!(depth_for(100) < depth_for(2_000));
        assert!(depth_for(2_000) < depth_for(20_000));
        let (think, hard) = budget(Some(180_000), 60);
        assert_eq!(think, 6_000);
        assert!(hard < Duration::from_millis(180_000));
        // Nearly out of time: still an answer before the flag.
        let (_, hard) = budget(Some(800), 20);
        assert!(hard < Duration::from_millis(800), "{hard:?}");
        assert_eq!(budget(None, 30).0, 10_000);
    }
}
