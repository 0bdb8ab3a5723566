//! The Responses API provider: `POST {base}/v1/responses` with the server's
//! key, streamed (SSE). Tolerates unknown events, a reasoning item and a
//! `[DONE]` sentinel; `response.failed`, `response.incomplete`, `error` and a
//! non-2xx answer are failures with clear (scrubbed) messages.

use super::{
    answer_schema, parse_answer, prompt, BoxFuture, ExplainError, Explainer, Explanation, Secrets,
    INSTRUCTIONS, MODEL, REASONING_EFFORT, SERVICE_TIER,
};
use crate::lab::facts::FactSheet;
use app::lab::ProviderStatus;
use eventsource_stream::{EventStreamError, Eventsource};
use futures_util::StreamExt;
use std::time::Duration;

/// Provider name shown on the page.
pub const PROVIDER: &str = "GPT-6 Luna · Responses API";

/// The Responses API explainer.
pub struct Responses {
    client: reqwest::Client,
    base_url: String,
    key: Option<String>,
    secrets: Secrets,
}

impl Responses {
    /// `base_url` without the `/v1/responses` path; `key` from `OPENAI_API_KEY`.
    pub fn new(base_url: &str, key: Option<String>) -> Self {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(15))
            .build()
            .unwrap_or_default();
        let key = key.filter(|k| !k.trim().is_empty());
        Responses {
            client,
            base_url: base_url.trim_end_matches('/').to_string(),
            secrets: Secrets::new(key.clone()),
            key,
        }
    }

    /// The request body for a fact sheet.
    pub fn body(facts: &FactSheet) -> serde_json::Value {
        serde_json::json!({
            "model": MODEL,
            "instructions": INSTRUCTIONS,
            "input": prompt(facts),
            "reasoning": {"effort": REASONING_EFFORT},
            "service_tier": SERVICE_TIER,
            "stream": true,
            "store": false,
            "max_output_tokens": 32000,
            "text": {"format": {
                "type": "json_schema",
                "name": "lab_explanation",
                "strict": true,
                "schema": answer_schema(),
            }},
        })
    }

    async fn run(&self, facts: &FactSheet) -> Result<Explanation, ExplainError> {
        let Some(key) = &self.key else {
            return Err(ExplainError(
                "the Responses API key (OPENAI_API_KEY) is not set on the server".into(),
            ));
        };
        let url = format!("{}/v1/responses", self.base_url);
        let response = self
            .client
            .post(&url)
            .bearer_auth(key)
            .header("accept", "text/event-stream")
            .json(&Self::body(facts))
            .send()
            .await
            .map_err(|e| {
                ExplainError(format!(
                    "cannot reach the Responses API at {}: {}",
                    without_userinfo(&self.base_url),
                    without_url(&e)
                ))
            })?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            let message = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v["error"]["message"].as_str().map(str::to_string))
                .unwrap_or_else(|| text.chars().take(200).collect());
            return Err(ExplainError(format!(
                "the Responses API answered HTTP {}: {}",
                status.as_u16(),
                message.trim()
            )));
        }
        let mut events = sse_events(response.bytes_stream());
        let mut stream = Stream::default();
        while let Some(event) = events.next().await {
            if stream.handle(&event?)? {
                return stream.finish();
            }
        }
        stream.finish()
    }
}

/// Removes JWT-shaped tokens (`eyJ….….…`) and e-mail addresses from a text
/// shown to visitors (provider errors can carry the operator's login).
pub(crate) fn redact_identity(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let is_local = |c: char| c.is_ascii_alphanumeric() || "._%+-".contains(c);
    let is_domain = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '-';
    while i < chars.len() {
        // A JWT: three base64url parts joined by dots, starting with `eyJ`.
        if chars[i..].starts_with(&['e', 'y', 'J']) && (i == 0 || !is_b64(chars[i - 1])) {
            let mut j = i;
            while j < chars.len() && (is_b64(chars[j]) || chars[j] == '.') {
                j += 1;
            }
            if chars[i..j].iter().filter(|&&c| c == '.').count() >= 2 {
                out.push_str("[redacted token]");
                i = j;
                continue;
            }
        }
        if chars[i] == '@' {
            let mut start = out.len();
            for (at, c) in out.char_indices().rev() {
                if is_local(c) {
                    start = at;
                } else {
                    break;
                }
            }
            let mut end = i + 1;
            while end < chars.len() && is_domain(chars[end]) {
                end += 1;
            }
            let domain: String = chars[i + 1..end].iter().collect();
            let domain = domain.trim_end_matches('.');
            if start < out.len() && domain.contains('.') && !domain.starts_with('.') {
                out.truncate(start);
                out.push_str("[redacted e-mail]");
                i = i + 1 + domain.chars().count();
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Scheme and host (and port) of a URL, for the provider line.
fn scheme_and_host(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(parsed) if parsed.host_str().is_some() => parsed.origin().ascii_serialization(),
        _ => "(an invalid URL)".to_string(),
    }
}

/// A URL without any `user:password@` part (for display).
fn without_userinfo(url: &str) -> String {
    match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            let host_end = rest.find('/').unwrap_or(rest.len());
            match rest[..host_end].rfind('@') {
                Some(at) => format!("{}{}", &url[..i + 3], &rest[at + 1..]),
                None => url.to_string(),
            }
        }
        None => url.to_string(),
    }
}

/// A reqwest error's text without the URL (which is ours anyway, but short).
fn without_url(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    if let Some(url) = error.url() {
        text = text.replace(&format!(" for url ({url})"), "");
    }
    let mut source = std::error::Error::source(error);
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

impl Explainer for Responses {
    fn explain<'a>(
        &'a self,
        facts: &'a FactSheet,
    ) -> BoxFuture<'a, Result<Explanation, ExplainError>> {
        Box::pin(async move {
            self.run(facts)
                .await
                .map_err(|e| ExplainError(redact_identity(&self.secrets.scrub(&e.0))))
        })
    }

    fn status(&self) -> ProviderStatus {
        let (ready, detail) = match &self.key {
            Some(_) => (
                true,
                format!(
                    "Model {MODEL} (reasoning {REASONING_EFFORT}, service tier Fast) via the Responses API at {}; the key stays on the server.",
                    scheme_and_host(&without_userinfo(&self.base_url))
                ),
            ),
            None => (
                false,
                "The Responses API is selected but OPENAI_API_KEY is not set on the server.".into(),
            ),
        };
        ProviderStatus {
            kind: "responses".into(),
            name: PROVIDER.into(),
            ready,
            detail,
        }
    }
}

/// One server-sent event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field (`None` when the event named none).
    pub event: Option<String>,
    pub data: String,
}

/// The server-sent events of a byte stream (the `eventsource-stream` crate:
/// WHATWG rules for `event:`/`data:` lines, comments, CR/LF line ends, data
/// over several lines). A broken stream is an [`ExplainError`].
pub fn sse_events<B: AsRef<[u8]>>(
    bytes: impl futures_util::Stream<Item = Result<B, reqwest::Error>> + Unpin,
) -> impl futures_util::Stream<Item = Result<SseEvent, ExplainError>> + Unpin {
    bytes.eventsource().map(|event| match event {
        Ok(event) => Ok(SseEvent {
            event: (event.event != "message").then_some(event.event),
            data: event.data,
        }),
        Err(EventStreamError::Transport(error)) => Err(ExplainError(format!(
            "the Responses API stream broke off: {}",
            without_url(&error)
        ))),
        Err(error) => Err(ExplainError(format!(
            "the Responses API stream is not readable: {error}"
        ))),
    })
}

/// What the stream has said so far.
#[derive(Default)]
struct Stream {
    text: String,
    done_text: Option<String>,
    completed: Option<serde_json::Value>,
    refusal: String,
}

impl Stream {
    /// Handles one event; `Ok(true)` once the response is complete.
    fn handle(&mut self, event: &SseEvent) -> Result<bool, ExplainError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            return Ok(self.completed.is_some());
        }
        let Ok(json) = serde_json::from_str::<serde_json::Value>(data) else {
            // Unknown non-JSON payloads are ignored, like unknown events.
            return Ok(false);
        };
        let kind = json["type"]
            .as_str()
            .map(str::to_string)
            .or_else(|| event.event.clone())
            .unwrap_or_default();
        match kind.as_str() {
            "response.output_text.delta" => {
                if let Some(delta) = json["delta"].as_str() {
                    self.text.push_str(delta);
                }
            }
            "response.output_text.done" => {
                if let Some(text) = json["text"].as_str() {
                    self.done_text = Some(text.to_string());
                }
            }
            "response.refusal.delta" => {
                if let Some(delta) = json["delta"].as_str() {
                    self.refusal.push_str(delta);
                }
            }
            "response.completed" => {
                self.completed = Some(json["response"].clone());
                return Ok(true);
            }
            "response.failed" => {
                let message = json["response"]["error"]["message"]
                    .as_str()
                    .unwrap_or("no reason given");
                return Err(ExplainError(format!(
                    "the model's response failed: {message}"
                )));
            }
            "response.incomplete" => {
                let reason = json["response"]["incomplete_details"]["reason"]
                    .as_str()
                    .unwrap_or("no reason given");
                return Err(ExplainError(format!(
                    "the model's response was incomplete: {reason}"
                )));
            }
            "error" => {
                let message = json["message"]
                    .as_str()
                    .or_else(|| json["error"]["message"].as_str())
                    .unwrap_or("no message");
                return Err(ExplainError(format!(
                    "the Responses API reported an error: {message}"
                )));
            }
            _ => {}
        }
        Ok(false)
    }

    fn finish(self) -> Result<Explanation, ExplainError> {
        let Some(response) = self.completed else {
            return Err(ExplainError(
                "the Responses API stream ended before the response was complete".into(),
            ));
        };
        let mut text = self.done_text.unwrap_or(self.text);
        if text.trim().is_empty() {
            // Fall back to the completed response's output items.
            text = response["output"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|item| item["type"] == "message")
                .flat_map(|item| item["content"].as_array().cloned().unwrap_or_default())
                .filter(|part| part["type"] == "output_text")
                .filter_map(|part| part["text"].as_str().map(str::to_string))
                .collect();
        }
        if text.trim().is_empty() && !self.refusal.is_empty() {
            return Err(ExplainError(format!(
                "the model declined to answer: {}",
                self.refusal
            )));
        }
        let model = response["model"].as_str().unwrap_or(MODEL);
        let provider = if model == MODEL || model.starts_with(&format!("{MODEL}-")) {
            PROVIDER.to_string()
        } else {
            format!("{model} · Responses API")
        };
        parse_answer(&text, &provider)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn server_sent_events_are_read_across_split_chunks_crlf_comments_and_multiline_data() {
        let chunks: Vec<Result<&'static [u8], reqwest::Error>> = vec![
            Ok(b": keep-alive\r\nevent: a\r\ndata: {\"x\""),
            Ok(b":1}\r\n\r\nevent: b\ndata: one\ndata: two\n\n"),
            Ok(b"data: [DONE]\n\n"),
            // An event cut off by the end of the stream is not one.
            Ok(b"event: c\ndata: cut"),
        ];
        let events: Vec<SseEvent> = sse_events(futures_util::stream::iter(chunks))
            .map(|e| e.expect("readable"))
            .collect()
            .await;
        assert_eq!(
            events,
            vec![
                SseEvent {
                    event: Some("a".into()),
                    data: "{\"x\":1}".into()
                },
                SseEvent {
                    event: Some("b".into()),
                    data: "one\ntwo".into()
                },
                SseEvent {
                    event: None,
                    data: "[DONE]".into()
                },
            ]
        );
    }

    fn event(json: serde_json::Value) -> SseEvent {
        SseEvent {
            event: json["type"].as_str().map(str::to_string),
            data: json.to_string(),
        }
    }

    #[test]
    fn a_stream_with_deltas_and_unknown_events_completes() {
        let mut stream = Stream::default();
        let answer = r#"{"explanation":"E","lesson":"L"}"#;
        for json in [
            serde_json::json!({"type":"response.created","response":{}}),
            serde_json::json!({"type":"response.something_new","x":1}),
            serde_json::json!({"type":"response.output_item.added","item":{"type":"reasoning"}}),
            serde_json::json!({"type":"response.output_text.delta","delta":&answer[..10]}),
            serde_json::json!({"type":"response.output_text.delta","delta":&answer[10..]}),
        ] {
            assert!(!stream.handle(&event(json)).expect("ok"));
        }
        assert!(stream
            .handle(&event(serde_json::json!({"type":"response.completed","response":{"model":"gpt-6-luna","service_tier":"priority"}})))
            .expect("ok"));
        let done = stream.finish().expect("explanation");
        assert_eq!(done.explanation, "E");
        assert_eq!(done.provider, PROVIDER);
    }

    #[test]
    fn jwts_and_emails_are_scrubbed() {
        let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJlbWFpbCI6ImEifQ.c2lnbmF0dXJl_-x";
        let text = format!("auth failed for ada.lovelace+x@mail.example.org with {jwt}; retry");
        let clean = redact_identity(&text);
        assert!(!clean.contains("ada.lovelace"), "{clean}");
        assert!(!clean.contains("mail.example"), "{clean}");
        assert!(!clean.contains("eyJ"), "{clean}");
        assert_eq!(
            clean,
            "auth failed for [redacted e-mail] with [redacted token]; retry"
        );
        assert_eq!(
            redact_identity("a @ b, x@y, eyJ.only"),
            "a @ b, x@y, eyJ.only"
        );
    }

    #[test]
    fn the_provider_line_shows_scheme_and_host_only() {
        assert_eq!(
            scheme_and_host("https://user:pw@api.example.com:8443/v1/x?key=1"),
            "https://api.example.com:8443"
        );
        assert_eq!(
            scheme_and_host("https://api.openai.com"),
            "https://api.openai.com"
        );
        assert_eq!(scheme_and_host("nonsense"), "(an invalid URL)");
    }

    #[test]
    fn urls_are_shown_without_credentials() {
        assert_eq!(
            without_userinfo("https://user:pw@example.com/x"),
            "https://example.com/x"
        );
        assert_eq!(without_userinfo("http://127.0.0.1:9"), "http://127.0.0.1:9");
    }

    #[test]
    fn failures_are_errors() {
        let mut stream = Stream::default();
        let error = stream
            .handle(&event(serde_json::json!({"type":"response.failed","response":{"error":{"message":"overloaded"}}})))
            .unwrap_err();
        assert!(error.0.contains("overloaded"));
        let mut stream = Stream::default();
        let error = stream
            .handle(&event(serde_json::json!({"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}})))
            .unwrap_err();
        assert!(error.0.contains("max_output_tokens"));
        let stream = Stream::default();
        assert!(stream.finish().unwrap_err().0.contains("ended before"));
    }
}
