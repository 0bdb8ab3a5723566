//! The Codex provider: the operator's existing Codex login through the local
//! Codex CLI. Each explanation runs `codex exec --json …` in an empty
//! temporary folder with the prompt on stdin and API keys removed from the
//! child's environment (so the ChatGPT login is what is used), and reads the
//! JSONL events: the last `agent_message` item is the answer; `turn.failed`
//! and `error` are failures.

use super::{
    answer_schema, parse_answer, prompt, BoxFuture, ExplainError, Explainer, Explanation, Secrets,
    INSTRUCTIONS, MODEL, REASONING_EFFORT,
};
use crate::lab::facts::FactSheet;
use app::lab::ProviderStatus;
use std::path::Path;
use std::process::Stdio;
use std::sync::RwLock;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

/// Provider name shown on the page.
pub const PROVIDER: &str = "GPT-6 Luna · Codex";

/// Environment variables removed from every Codex child.
const STRIPPED_ENV: [&str; 2] = ["CODEX_API_KEY", "OPENAI_API_KEY"];

/// The Codex CLI explainer.
pub struct Codex {
    bin: String,
    status: RwLock<ProviderStatus>,
    secrets: Secrets,
}

/// What `codex login status` said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Login {
    LoggedIn,
    NotLoggedIn,
    Missing(String),
}

/// Runs `codex login status` (bounded to 20 s).
pub async fn login_status(bin: &str) -> Login {
    let mut command = Command::new(bin);
    command
        .args(["login", "status"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    for name in STRIPPED_ENV {
        command.env_remove(name);
    }
    match tokio::time::timeout(Duration::from_secs(20), command.status()).await {
        Ok(Ok(status)) if status.success() => Login::LoggedIn,
        Ok(Ok(_)) => Login::NotLoggedIn,
        Ok(Err(error)) => Login::Missing(error.to_string()),
        Err(_) => Login::Missing("`codex login status` did not answer within 20 s".into()),
    }
}

fn status_for(bin: &str, login: &Login) -> ProviderStatus {
    let (ready, detail) = match login {
        Login::LoggedIn => (
            true,
            format!("Codex CLI is logged in; model {MODEL} (reasoning {REASONING_EFFORT}, service tier Fast)."),
        ),
        Login::NotLoggedIn => (
            false,
            "Codex CLI is not logged in: run `codex login` on the server.".to_string(),
        ),
        Login::Missing(error) => (false, format!("Codex CLI `{bin}` is not available: {error}")),
    };
    ProviderStatus {
        kind: "codex".into(),
        name: PROVIDER.into(),
        ready,
        detail,
    }
}

impl Codex {
    /// Checks the login (logged) and builds the provider.
    pub async fn start(bin: &str, secrets: Secrets) -> Self {
        let login = login_status(bin).await;
        match &login {
            Login::LoggedIn => tracing::info!(bin, "Codex CLI available and logged in"),
            Login::NotLoggedIn => {
                tracing::warn!(bin, "Codex CLI is not logged in: run `codex login`")
            }
            Login::Missing(error) => tracing::warn!(bin, "Codex CLI not available: {error}"),
        }
        Codex {
            bin: bin.to_string(),
            status: RwLock::new(status_for(bin, &login)),
            secrets,
        }
    }

    /// The command line of one explanation (without the program).
    pub fn arguments(work: &Path, schema: &Path, out: &Path) -> Vec<String> {
        let mut args: Vec<String> = [
            "exec",
            "--json",
            "--ephemeral",
            "--skip-git-repo-check",
            "-s",
            "read-only",
            "-C",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(work.display().to_string());
        args.extend(
            [
                "-m",
                MODEL,
                "-c",
                "model_reasoning_effort=\"max\"",
                "-c",
                "service_tier=\"fast\"",
                "-c",
                "features.fast_mode=true",
                "--output-schema",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        args.push(schema.display().to_string());
        args.push("-o".into());
        args.push(out.display().to_string());
        args.push("-".into());
        args
    }

    async fn run(&self, facts: &FactSheet) -> Result<Explanation, ExplainError> {
        let io = |what: &str, e: std::io::Error| ExplainError(format!("{what}: {e}"));
        let work = tempfile::Builder::new()
            .prefix("othello-codex-work-")
            .tempdir()
            .map_err(|e| io("cannot create a folder for Codex", e))?;
        let files = tempfile::Builder::new()
            .prefix("othello-codex-")
            .tempdir()
            .map_err(|e| io("cannot create a folder for Codex", e))?;
        let schema = files.path().join("schema.json");
        let out = files.path().join("out.json");
        std::fs::write(&schema, answer_schema().to_string())
            .map_err(|e| io("cannot write the answer schema", e))?;
        let mut command = Command::new(&self.bin);
        command
            .args(Self::arguments(work.path(), &schema, &out))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for name in STRIPPED_ENV {
            command.env_remove(name);
        }
        let mut child = command
            .spawn()
            .map_err(|e| ExplainError(format!("cannot start Codex CLI `{}`: {e}", self.bin)))?;
        if let Some(mut stdin) = child.stdin.take() {
            let input = format!("{INSTRUCTIONS}\n\n{}", prompt(facts));
            stdin
                .write_all(input.as_bytes())
                .await
                .map_err(|e| io("cannot send the prompt to Codex", e))?;
            drop(stdin);
        }
        let stderr = child.stderr.take();
        let stderr_task = tokio::spawn(async move {
            let mut text = String::new();
            if let Some(mut stderr) = stderr {
                let mut bytes = Vec::new();
                let _ = stderr.read_to_end(&mut bytes).await;
                text = String::from_utf8_lossy(&bytes).into_owned();
            }
            text
        });
        let mut answer: Option<String> = None;
        let mut failure: Option<String> = None;
        if let Some(stdout) = child.stdout.take() {
            let mut lines = BufReader::new(stdout).lines();
            while let Some(line) = lines
                .next_line()
                .await
                .map_err(|e| io("cannot read Codex's output", e))?
            {
                let Ok(event) = serde_json::from_str::<serde_json::Value>(line.trim()) else {
                    continue;
                };
                match event["type"].as_str().unwrap_or_default() {
                    "item.completed" => {
                        let item = &event["item"];
                        let kind = item["type"].as_str().or_else(|| item["item_type"].as_str());
                        if matches!(kind, Some("agent_message") | Some("assistant_message")) {
                            if let Some(text) = item["text"].as_str() {
                                answer = Some(text.to_string());
                            }
                        }
                    }
                    "turn.failed" => {
                        let message = event["error"]["message"]
                            .as_str()
                            .unwrap_or("no reason given");
                        failure = Some(format!("the Codex turn failed: {message}"));
                    }
                    "error" => {
                        let message = event["message"]
                            .as_str()
                            .or_else(|| event["error"]["message"].as_str())
                            .unwrap_or("no message");
                        failure
                            .get_or_insert_with(|| format!("Codex reported an error: {message}"));
                    }
                    _ => {}
                }
            }
        }
        let status = child
            .wait()
            .await
            .map_err(|e| io("Codex did not finish", e))?;
        let stderr = stderr_task.await.unwrap_or_default();
        if let Some(failure) = failure {
            return Err(ExplainError(failure));
        }
        if !status.success() {
            let last = stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message");
            return Err(ExplainError(format!(
                "Codex exited with {}: {last}",
                status
                    .code()
                    .map_or_else(|| "a signal".to_string(), |c| format!("status {c}"))
            )));
        }
        let text = match answer {
            Some(text) => text,
            None => std::fs::read_to_string(&out)
                .map_err(|_| ExplainError("Codex finished without an answer".into()))?,
        };
        parse_answer(&text, PROVIDER)
    }
}

impl Explainer for Codex {
    fn explain<'a>(
        &'a self,
        facts: &'a FactSheet,
    ) -> BoxFuture<'a, Result<Explanation, ExplainError>> {
        Box::pin(async move {
            let result = self.run(facts).await.map_err(|e| {
                ExplainError(super::responses::redact_identity(&self.secrets.scrub(&e.0)))
            });
            if result.is_ok() {
                if let Ok(mut status) = self.status.write() {
                    if !status.ready {
                        *status = status_for(&self.bin, &Login::LoggedIn);
                    }
                }
            }
            result
        })
    }

    fn status(&self) -> ProviderStatus {
        self.status
            .read()
            .map(|s| s.clone())
            .unwrap_or_else(|_| status_for(&self.bin, &Login::NotLoggedIn))
    }
}
