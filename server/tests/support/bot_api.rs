//! The Bot API as a bot's program calls it (the bot tests' client): bearer
//! requests and NDJSON streams read line by line.
#![allow(dead_code)]

use crate::support::Live;
use serde_json::Value;
use std::time::Duration;

/// The Bot API as a bot's program calls it.
pub struct Api {
    pub http: reqwest::Client,
    pub url: String,
    pub token: String,
}

impl Api {
    pub fn new(live: &Live, token: &str) -> Api {
        Api {
            http: reqwest::Client::new(),
            url: live.url.clone(),
            token: token.to_string(),
        }
    }

    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.url))
            .header("authorization", format!("Bearer {}", self.token))
            .header("x-real-ip", "198.51.100.7")
    }

    /// A request's status and JSON answer.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.request(method, path);
        if let Some(body) = body {
            request = request.body(body.to_string());
        }
        let response = request.send().await.expect("sent");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub async fn post(&self, path: &str) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, None).await
    }

    pub async fn stream(&self, path: &str) -> Lines {
        let response = self
            .request(reqwest::Method::GET, path)
            .send()
            .await
            .expect("stream");
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["content-type"],
            "application/x-ndjson",
            "{path}"
        );
        Lines {
            response,
            buffer: Vec::new(),
        }
    }
}

/// An NDJSON answer read line by line.
pub struct Lines {
    pub response: reqwest::Response,
    pub buffer: Vec<u8>,
}

impl Lines {
    /// The next non-empty line as JSON; `None` when the stream ended.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8(line).expect("utf-8");
                if text.trim().is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(text.trim()).expect("a JSON line"));
            }
            let chunk = tokio::time::timeout(Duration::from_secs(15), self.response.chunk())
                .await
                .expect("a line within 15 s")
                .expect("readable");
            self.buffer.extend_from_slice(&chunk?);
        }
    }

    /// The next `gameState` line whose `field` is `value`, skipping others.
    pub async fn until(&mut self, field: &str, value: &str) -> Value {
        loop {
            let line = self.next_of("gameState").await;
            if line[field] == value {
                return line;
            }
        }
    }

    /// The next line whose `type` is `kind`, skipping others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let line = self.next().await.expect("the stream goes on");
            if line["type"] == kind {
                return line;
            }
        }
    }
}
