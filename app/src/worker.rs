//! The page's side of the engine's Web Worker.
//!
//! The engine (the `engine-wasm` crate, built to `/pkg/engine.js` +
//! `/pkg/engine_bg.wasm`) runs in a module worker, `/pkg/engine-worker.js`,
//! which the page starts the first time it needs it: a hint, or a move in an
//! offline game. The lobby never starts it, so its bytes on the wire do not
//! include the engine. All three files are same-origin scripts under `/pkg`
//! (no `blob:` or inline worker).
//!
//! Messages are small typed objects: a request carries an `id` and one of the
//! [`EngineRequest`] operations; the reply carries the same `id`, `ok`, the
//! result and the milliseconds the engine spent. [`cancel`] terminates the
//! worker (a search cannot be interrupted otherwise) and fails what was
//! waiting; the next request starts a fresh worker.

use serde::{Deserialize, Serialize};

/// Where the worker script is served before content hashing; the page names
/// the hashed script in a `<meta name="othello-engine-worker">` (see
/// `assets.rs`), which the browser side reads with [`worker_url`].
pub const WORKER_URL: &str = "/pkg/engine-worker.js";

/// Where the trained evaluation's weights are served before hashing
/// (`engine/weights/eval.bin`, copied by `cargo xtask site`).
pub const WEIGHTS_URL: &str = "/pkg/eval.bin";

/// Where the offline puzzle pack is served before hashing (the first 500
/// of `puzzles/puzzles.jsonl`, copied by `cargo xtask site`).
pub const PUZZLES_URL: &str = "/pkg/puzzles.jsonl";

/// A `/pkg/` path the page names in `<meta name=…>`, else `fallback`.
#[cfg(feature = "hydrate")]
pub(crate) fn meta_url(name: &str, fallback: &str) -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("meta[name=\"{name}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|meta| meta.get_attribute("content"))
        .filter(|url| url.starts_with("/pkg/"))
        .unwrap_or_else(|| fallback.to_string())
}

/// The worker script's served name: the page's `<meta>`, else [`WORKER_URL`].
#[cfg(feature = "hydrate")]
pub fn worker_url() -> String {
    meta_url(crate::assets::WORKER_META, WORKER_URL)
}

/// The weights' served name: the page's `<meta>`, else [`WEIGHTS_URL`].
pub fn weights_url() -> String {
    #[cfg(feature = "hydrate")]
    {
        meta_url(crate::assets::WEIGHTS_META, WEIGHTS_URL)
    }
    #[cfg(not(feature = "hydrate"))]
    {
        WEIGHTS_URL.to_string()
    }
}

/// Hints are exact (the solver) from this many empty squares down, as the
/// worker's `hint` operation decides (`engine_wasm::HINT_EXACT_EMPTIES`).
pub const HINT_EXACT_EMPTIES: usize = 20;

/// One operation for the worker. Boards are 64 cells (0 empty, +1 black,
/// −1 white); `side` is the side to move (+1 black, −1 white).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum EngineRequest {
    /// The play AI's search to `depth`.
    Search {
        cells: Vec<i8>,
        side: i8,
        depth: u32,
    },
    /// The exact endgame solver.
    Solve { cells: Vec<i8>, side: i8 },
    /// The solver in the last 20 empties, else the search to `depth`.
    Hint {
        cells: Vec<i8>,
        side: i8,
        depth: u32,
    },
    /// Every legal move's value in discs (the strong search at `depth` on
    /// the trained evaluation, exact near the end), within `max_nodes`.
    /// `weights` is where the worker fetches the trained weights the first
    /// time (then they stay loaded).
    #[serde(rename = "hint_all")]
    HintAll {
        cells: Vec<i8>,
        side: i8,
        depth: u32,
        max_nodes: f64,
        weights: String,
    },
    /// Plays `square` (−1: only describes the position) and a forced pass.
    Play {
        cells: Vec<i8>,
        side: i8,
        square: i32,
    },
}

/// What a search, a solve or a hint found.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Analysis {
    /// The best square, −1 when the side to move must pass or the game is over.
    pub square: i32,
    /// The search's value (the play AI's evaluation units) or, when `exact`,
    /// the final disc difference with perfect play; from the mover's view.
    pub value: i32,
    /// Positions searched.
    pub nodes: f64,
    /// The depth searched, or the empty squares solved.
    pub depth: u32,
    /// Whether the solver produced it.
    pub exact: bool,
}

impl Analysis {
    /// The best move as a square index, if any.
    pub fn best(&self) -> Option<u8> {
        u8::try_from(self.square).ok().filter(|&s| s < 64)
    }
}

/// One legal move's value from [`EngineRequest::HintAll`].
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, Serialize)]
pub struct MoveValue {
    pub square: u8,
    /// Discs for the side to move (the final difference expected).
    pub value: f32,
    /// Solved exactly.
    pub exact: bool,
}

/// Every legal move's value, best first.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct MoveValues {
    pub moves: Vec<MoveValue>,
    /// The midgame search depth.
    pub depth: u32,
}

/// Asks the worker for every legal move's value.
pub async fn hint_all(
    cells: Vec<i8>,
    side: i8,
    depth: u32,
    max_nodes: u64,
) -> Result<Timed<MoveValues>, String> {
    decode(
        &client::request(&EngineRequest::HintAll {
            cells,
            side,
            depth,
            max_nodes: max_nodes as f64,
            weights: weights_url(),
        })
        .await?,
    )
}

/// A position after a move (and the pass that may follow it).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Step {
    pub cells: Vec<i8>,
    pub flipped: Vec<u8>,
    /// +1 black, −1 white, 0 when the game is over.
    pub to_move: i8,
    /// The side that had to pass after the move, else 0.
    pub passed: i8,
    pub legal: Vec<u8>,
    pub black: u8,
    pub white: u8,
}

/// A result and the time the engine took for it (milliseconds).
#[derive(Clone, Debug, PartialEq)]
pub struct Timed<T> {
    pub result: T,
    pub ms: f64,
}

/// The worker's reply, as it arrives.
#[derive(Debug, Deserialize)]
struct Reply<T> {
    #[serde(default)]
    ok: bool,
    #[serde(default = "none")]
    result: Option<T>,
    #[serde(default)]
    ms: f64,
    #[serde(default)]
    error: Option<String>,
}

fn none<T>() -> Option<T> {
    None
}

/// Reads a reply's JSON text into `T`.
fn decode<T: serde::de::DeserializeOwned>(text: &str) -> Result<Timed<T>, String> {
    let reply: Reply<T> =
        serde_json::from_str(text).map_err(|e| format!("malformed engine reply: {e}"))?;
    if !reply.ok {
        return Err(reply
            .error
            .unwrap_or_else(|| "the engine failed without saying why".into()));
    }
    let result = reply.result.ok_or("the engine's reply has no result")?;
    Ok(Timed {
        result,
        ms: reply.ms,
    })
}

/// The request as the worker reads it: the operation plus its `id`.
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
fn encode(id: u32, request: &EngineRequest) -> String {
    // The request serialises as an object (`{"op":…}`): prepend the id.
    let body = serde_json::to_string(request).unwrap_or_default();
    format!("{{\"id\":{id},{}", body.strip_prefix('{').unwrap_or("}"))
}

/// Asks the worker for an analysis (search, solve or hint).
pub async fn analyse(request: EngineRequest) -> Result<Timed<Analysis>, String> {
    decode(&client::request(&request).await?)
}

/// Asks the worker to play a move (or describe a position, with −1).
pub async fn play(cells: Vec<i8>, side: i8, square: i32) -> Result<Timed<Step>, String> {
    decode(
        &client::request(&EngineRequest::Play {
            cells,
            side,
            square,
        })
        .await?,
    )
}

/// Stops whatever the worker is computing: terminates it; waiting requests
/// fail with "cancelled". The next request starts a fresh worker.
pub fn cancel() {
    client::cancel();
}

#[cfg(feature = "hydrate")]
mod client {
    use std::cell::{Cell, RefCell};
    use std::collections::HashMap;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    struct Client {
        worker: web_sys::Worker,
        next_id: Cell<u32>,
        /// Each waiting request's `resolve`, by id.
        pending: Rc<RefCell<HashMap<u32, js_sys::Function>>>,
        _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
        _on_error: Closure<dyn FnMut(web_sys::Event)>,
    }

    thread_local! {
        static CLIENT: RefCell<Option<Rc<Client>>> = const { RefCell::new(None) };
    }

    /// Resolves every waiting request with a failure.
    fn fail_all(pending: &RefCell<HashMap<u32, js_sys::Function>>, message: &str) {
        let waiting: Vec<_> = pending.borrow_mut().drain().collect();
        for (id, resolve) in waiting {
            let reply = format!(
                "{{\"id\":{id},\"ok\":false,\"error\":{}}}",
                serde_json::to_string(message).unwrap_or_default()
            );
            if let Ok(value) = js_sys::JSON::parse(&reply) {
                let _ = resolve.call1(&JsValue::NULL, &value);
            }
        }
    }

    fn start() -> Result<Rc<Client>, String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&super::worker_url(), &options)
            .map_err(|e| format!("cannot start the engine: {e:?}"))?;
        let pending: Rc<RefCell<HashMap<u32, js_sys::Function>>> = Rc::default();
        let waiting = pending.clone();
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let data = event.data();
                let id = js_sys::Reflect::get(&data, &"id".into())
                    .ok()
                    .and_then(|v| v.as_f64())
                    .map(|v| v as u32);
                let resolve = id.and_then(|id| waiting.borrow_mut().remove(&id));
                if let Some(resolve) = resolve {
                    let _ = resolve.call1(&JsValue::NULL, &data);
                }
            },
        );
        let waiting = pending.clone();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let message = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map(|e| e.message())
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "the engine could not be loaded".into());
            fail_all(&waiting, &message);
            // A broken worker is not reused.
            CLIENT.with(|c| c.borrow_mut().take());
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Rc::new(Client {
            worker,
            next_id: Cell::new(1),
            pending,
            _on_message: on_message,
            _on_error: on_error,
        }))
    }

    fn client() -> Result<Rc<Client>, String> {
        CLIENT.with(|c| {
            if let Some(client) = c.borrow().as_ref() {
                return Ok(client.clone());
            }
            let client = start()?;
            *c.borrow_mut() = Some(client.clone());
            Ok(client)
        })
    }

    /// Sends a request; resolves to the reply's JSON text.
    pub(super) async fn request(request: &super::EngineRequest) -> Result<String, String> {
        let client = client()?;
        let id = client.next_id.get();
        client.next_id.set(id.wrapping_add(1));
        let message = js_sys::JSON::parse(&super::encode(id, request))
            .map_err(|_| "cannot encode the request".to_string())?;
        let pending = client.pending.clone();
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            pending.borrow_mut().insert(id, resolve);
        });
        if let Err(error) = client.worker.post_message(&message) {
            client.pending.borrow_mut().remove(&id);
            return Err(format!("cannot reach the engine: {error:?}"));
        }
        drop(client);
        let reply = wasm_bindgen_futures::JsFuture::from(promise)
            .await
            .map_err(|e| format!("{e:?}"))?;
        js_sys::JSON::stringify(&reply)
            .map(String::from)
            .map_err(|_| "unreadable engine reply".to_string())
    }

    pub(super) fn cancel() {
        if let Some(client) = CLIENT.with(|c| c.borrow_mut().take()) {
            client.worker.terminate();
            fail_all(&client.pending, "cancelled");
        }
    }
}

/// Without a browser there is no worker: every request fails.
#[cfg(not(feature = "hydrate"))]
mod client {
    pub(super) async fn request(_request: &super::EngineRequest) -> Result<String, String> {
        Err("the engine runs in the browser only".into())
    }

    pub(super) fn cancel() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_carry_their_id_and_operation() {
        let text = encode(
            7,
            &EngineRequest::Hint {
                cells: vec![0; 64],
                side: -1,
                depth: 6,
            },
        );
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["id"], 7);
        assert_eq!(value["op"], "hint");
        assert_eq!(value["side"], -1);
        assert_eq!(value["depth"], 6);
        assert_eq!(value["cells"].as_array().unwrap().len(), 64);
        let play = encode(
            8,
            &EngineRequest::Play {
                cells: vec![],
                side: 1,
                square: -1,
            },
        );
        assert!(play.contains(r#""op":"play""#) && play.contains(r#""square":-1"#));
    }

    #[test]
    fn replies_are_decoded_or_refused() {
        let ok: Timed<Analysis> = decode(
            r#"{"id":1,"ok":true,"ms":2.5,"result":{"square":37,"value":-3,"nodes":1234,"depth":6,"exact":false}}"#,
        )
        .unwrap();
        assert_eq!(ok.result.best(), Some(37));
        assert_eq!(ok.result.nodes, 1234.0);
        assert_eq!(ok.ms, 2.5);
        let none: Timed<Analysis> = decode(
            r#"{"id":1,"ok":true,"ms":0,"result":{"square":-1,"value":4,"nodes":1,"depth":0,"exact":true}}"#,
        )
        .unwrap();
        assert_eq!(none.result.best(), None);
        let refused = decode::<Analysis>(r#"{"id":2,"ok":false,"error":"cancelled"}"#);
        assert_eq!(refused.unwrap_err(), "cancelled");
        assert!(decode::<Analysis>("not json").is_err());
        assert!(decode::<Analysis>(r#"{"id":3,"ok":true}"#).is_err());
        assert!(decode::<Step>(r#"{"id":3,"ok":true,"result":{"square":1}}"#).is_err());
    }
}
