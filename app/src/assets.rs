//! The static files' served names. `cargo xtask site` gives every file under
//! `/pkg`, `/vendor` and `/style` a content-hashed name and writes
//! `site/manifest.json` (served path → hashed path); the server reads it at
//! start and provides an [`Assets`] to the page renderer, so the page names the
//! hashed files (stylesheets, the import map, the engine's worker). Without a
//! manifest (a site built before hashing, or tests without a site) every path
//! is its own name.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Served path → hashed path, and the hashed paths themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assets(Arc<HashMap<String, String>>, Arc<HashSet<String>>);

/// The `<meta>` that tells the browser side where the engine's worker is
/// (its name is hashed; see `worker.rs`).
pub const WORKER_META: &str = "othello-engine-worker";

/// The `<meta>` that names the trained evaluation's weights (hashed), which
/// the worker fetches the first time a hint scores every move.
pub const WEIGHTS_META: &str = "othello-engine-weights";

/// The `<meta>` that names the offline puzzle pack (hashed).
pub const PUZZLES_META: &str = "othello-puzzle-pack";

/// The `<meta>` present (content `1`) only on an app shell: the lobby or
/// the offline page as the service worker keeps them for when the server
/// cannot be reached (see the server's `offline.rs`). The lobby read from a
/// shell offers offline practice only.
pub const SHELL_META: &str = "othello-shell";

/// The language of an app-shell request: the lobby or the offline page
/// with `shell=<code>` in the query.
pub fn shell_request(path: &str, query: Option<&str>) -> Option<crate::i18n::Lang> {
    if path == "/" || path == "/offline" || path == "/analysis" {
        shell_lang(query)
    } else {
        None
    }
}

/// The language named by `shell=<code>` in a query.
pub fn shell_lang(query: Option<&str>) -> Option<crate::i18n::Lang> {
    query?.split('&').find_map(|pair| {
        let code = pair.strip_prefix("shell=")?;
        crate::i18n::Lang::ALL
            .into_iter()
            .find(|lang| lang.code() == code)
    })
}

/// The app's wasm-bindgen glue, as `cargo xtask site` lays out `site/pkg`.
const GLUE: &str = "/pkg/frontend.js";
/// The app's main wasm module (its other chunks are loaded by the glue).
const APP_WASM: &str = "/pkg/frontend.wasm";

impl Assets {
    /// Reads `manifest.json`'s text: one JSON object of strings, each key and
    /// value an absolute path.
    pub fn from_manifest(json: &str) -> Result<Self, String> {
        let map: HashMap<String, String> =
            serde_json::from_str(json).map_err(|e| format!("manifest.json: {e}"))?;
        if let Some((from, to)) = map
            .iter()
            .find(|(from, to)| !from.starts_with('/') || !to.starts_with('/'))
        {
            return Err(format!(
                "manifest.json: `{from}` → `{to}` is not an absolute path"
            ));
        }
        let hashed = map.values().cloned().collect();
        Ok(Self(Arc::new(map), Arc::new(hashed)))
    }

    /// The name to serve `path` under (`path` itself when it was not hashed).
    pub fn url(&self, path: &str) -> String {
        self.0
            .get(path)
            .cloned()
            .unwrap_or_else(|| path.to_string())
    }

    /// Every hashed name, sorted (the service worker's precache list is
    /// drawn from these).
    pub fn hashed(&self) -> Vec<String> {
        let mut out: Vec<String> = self.0.values().cloned().collect();
        out.sort();
        out.dedup();
        out
    }

    /// Whether `path` is one of this deploy's hashed files (immutable, named
    /// by the pages and the service worker's precache list).
    pub fn is_hashed(&self, path: &str) -> bool {
        self.1.contains(path)
    }

    /// How many files were hashed.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no file was hashed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The glue (`frontend.js`) and the modules it imports as it starts: the
    /// wasm-split chunk loader and wasm-bindgen's inline snippets. The page
    /// names them in `<link rel="modulepreload">`s so the browser fetches them
    /// all while it parses the head, instead of one import round after
    /// another. Hashed names, glue first, the rest sorted; without a manifest
    /// only the glue under its plain name.
    pub fn entry_imports(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .0
            .iter()
            .filter(|(from, _)| {
                from.ends_with(".js")
                    && (from.starts_with("/pkg/snippets/frontend-")
                        || from.starts_with("/pkg/__wasm_split."))
            })
            .map(|(_, to)| to.clone())
            .collect();
        out.sort();
        out.insert(0, self.url(GLUE));
        out
    }

    /// The page's start-up script (a classic inline script in the head, so it
    /// runs as soon as it is parsed): it fetches and compiles the app's wasm
    /// while the glue's modules load, then hydrates once the document is
    /// parsed and the server's page has had its first frame (a visible page's
    /// next animation frame, then a task: hydrating is the main thread's
    /// longest task, and run before that frame it held the first paint back
    /// until it was done; a hidden tab, whose frames wait, hydrates at once).
    /// A button pressed in the moment between that frame and the end of
    /// hydration (the page is drawn but has no handlers yet) is held and
    /// pressed again once the page has hydrated (`<body data-hydrated>`,
    /// which the frontend sets when its asynchronous hydration is done), so
    /// no press is lost. A control changed in that moment (a select, a radio
    /// button, a checkbox, a text field) shows the player's choice but its
    /// handler never ran, so the page's state still held the server's default
    /// (a game started from the lobby at depth 3 as Black with 5 and White on
    /// screen): each such control is noted, and once the page has hydrated it
    /// gets its `input` and `change` events again (a radio button only if it
    /// is still the checked one), before the held press.
    /// Leptos' own `HydrationScripts` starts all of this from a module
    /// script, which the browser runs only after the whole document and every
    /// stylesheet; measured in docs/BENCHMARKS.md (start-up). Once the page
    /// has hydrated and loaded, it registers the service worker (`/sw.js`,
    /// see the server's `offline.rs`): `<html data-offline="ready">` once a
    /// worker controls the page, and, when a new deploy's worker is waiting,
    /// `<html data-update="ready">` and a banner, "A new version of Othello
    /// 3D is ready" with a Reload button (its words from the page's
    /// `othello-update-*` metas), which hands over to it and reloads.
    pub fn boot_script(&self) -> String {
        let glue = serde_json::to_string(&self.url(GLUE)).unwrap_or_default();
        let wasm = serde_json::to_string(&self.url(APP_WASM)).unwrap_or_default();
        format!(
            "(function(glue,wasm){{\
var bytes=fetch(wasm);\
var compiled=WebAssembly.compileStreaming?WebAssembly.compileStreaming(bytes).catch(function(){{return fetch(wasm);}}):bytes;\
var ready=import(glue).then(function(mod){{return compiled.then(function(m){{return mod.default({{module_or_path:m}});}}).then(function(){{return mod;}});}});\
var early=null;function hold(e){{var b=e.target.closest&&e.target.closest('button');if(b&&!b.disabled){{e.preventDefault();e.stopPropagation();early=b;}}}}\
var touched=[];function note(e){{var t=e.target;if(t&&/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)&&touched.indexOf(t)<0)touched.push(t);}}\
addEventListener('click',hold,true);addEventListener('input',note,true);addEventListener('change',note,true);\
function unhold(){{removeEventListener('click',hold,true);removeEventListener('input',note,true);removeEventListener('change',note,true);}}\
function replay(){{unhold();var t=touched;touched=[];t.forEach(function(c){{if(!c.isConnected||(c.type==='radio'&&!c.checked))return;\
c.dispatchEvent(new Event('input',{{bubbles:true}}));c.dispatchEvent(new Event('change',{{bubbles:true}}));}});\
var b=early;early=null;if(b&&b.isConnected&&!b.disabled)b.click();}}\
function hydrated(f){{var body=document.body;if(body.dataset.hydrated==='true')return f();var o=new MutationObserver(function(){{if(body.dataset.hydrated==='true'){{o.disconnect();f();}}}});o.observe(body,{{attributes:true,attributeFilter:['data-hydrated']}});}}\
function go(){{ready.then(function(mod){{painted(function(){{hydrated(replay);mod.hydrate();later(offline);}});}},function(e){{unhold();console.error('the app could not start',e);}});}}\
function painted(f){{if(document.visibilityState==='visible')requestAnimationFrame(function(){{setTimeout(f,0);}});else f();}}\
function later(f){{if(document.readyState==='complete')setTimeout(f,0);else addEventListener('load',function(){{setTimeout(f,0);}});}}\
function notice(id,name,role,act){{if(document.getElementById(id))return;\
var said=function(n){{var e=document.querySelector('meta[name=othello-'+name+'-'+n+']');return e?e.content:'';}};\
var box=document.createElement('div'),text=document.createElement('span'),button=document.createElement('button');\
box.id=id;box.className='update-ready';box.setAttribute('role',role);text.textContent=said('text');\
button.type='button';button.id=name+'-reload';button.textContent=said('button');button.onclick=act;\
box.appendChild(text);box.appendChild(button);document.body.appendChild(box);}}\
function banner(){{notice('update-ready','update','status',function(){{window.othelloUpdate();}});}}\
function crashed(e){{if((e.error||e.reason)instanceof WebAssembly.RuntimeError)notice('page-crashed','crash','alert',function(){{location.reload();}});}}\
addEventListener('error',crashed);addEventListener('unhandledrejection',crashed);\
function offline(){{var sw=navigator.serviceWorker,asked=false;if(!sw)return;\
sw.addEventListener('controllerchange',function(){{if(asked)location.reload();}});\
sw.register('/sw.js').then(function(reg){{\
function waiting(w){{if(!sw.controller)return;window.othelloUpdate=function(){{asked=true;w.postMessage('skip-waiting');}};document.documentElement.dataset.update='ready';banner();}}\
if(reg.waiting)waiting(reg.waiting);\
reg.addEventListener('updatefound',function(){{var w=reg.installing;if(w)w.addEventListener('statechange',function(){{if(w.state==='installed')waiting(w);}});}});\
setInterval(function(){{reg.update().catch(function(){{}});}},1800000);\
return sw.ready;}}).then(function(){{function mark(){{document.documentElement.dataset.offline='ready';}}\
if(sw.controller)mark();else sw.addEventListener('controllerchange',mark);}},function(e){{console.warn('offline play is not available',e);}});}}\
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',go);else go();\
}})({glue},{wasm});"
        )
    }

    /// The import map that resolves `three` (WebGPU) and `three/webgl` (WebGL
    /// 2) to the two bundles `cargo xtask site` builds under `/vendor/three/`
    /// (a page imports one of them), and `three/addons` to the addons' bundle
    /// (the orbit controls, imported at the first touch of the board).
    pub fn import_map(&self) -> String {
        let three = self.url("/vendor/three/three.bundle.js");
        let webgl = self.url("/vendor/three/three-webgl.bundle.js");
        let addons = self.url("/vendor/three/three-addons.bundle.js");
        format!(
            r#"{{"imports":{{"three":"{three}","three/webgl":"{webgl}","three/addons":"{addons}"}}}}"#
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_paths_replace_plain_ones_and_others_stay() {
        let assets = Assets::from_manifest(
            r#"{"/vendor/three/three.bundle.js": "/vendor/three/three.0123456789abcdef.js",
                "/vendor/three/three-webgl.bundle.js": "/vendor/three/three-webgl.1123456789abcdef.js",
                "/vendor/three/three-addons.bundle.js": "/vendor/three/three-addons.2123456789abcdef.js",
                "/style/main.css": "/style/main.fedcba9876543210.css"}"#,
        )
        .unwrap();
        assert_eq!(
            assets.url("/style/main.css"),
            "/style/main.fedcba9876543210.css"
        );
        assert_eq!(assets.url("/style/other.css"), "/style/other.css");
        assert_eq!(
            assets.import_map(),
            r#"{"imports":{"three":"/vendor/three/three.0123456789abcdef.js","three/webgl":"/vendor/three/three-webgl.1123456789abcdef.js","three/addons":"/vendor/three/three-addons.2123456789abcdef.js"}}"#
        );
        assert_eq!(
            Assets::default().import_map(),
            r#"{"imports":{"three":"/vendor/three/three.bundle.js","three/webgl":"/vendor/three/three-webgl.bundle.js","three/addons":"/vendor/three/three-addons.bundle.js"}}"#
        );
    }

    #[test]
    fn the_glues_start_up_imports_are_named_for_preloading() {
        let assets = Assets::from_manifest(
            r#"{"/pkg/frontend.js": "/pkg/frontend.1.js",
                "/pkg/__wasm_split.______________________.js": "/pkg/__wasm_split.2.js",
                "/pkg/snippets/frontend-abc/inline0.js": "/pkg/snippets/frontend-abc/inline0.3.js",
                "/pkg/engine-worker.js": "/pkg/engine-worker.4.js",
                "/vendor/three/three.bundle.js": "/vendor/three/three.5.js"}"#,
        )
        .unwrap();
        // The glue first, then what it imports; not the worker, not Three.js.
        assert_eq!(
            assets.entry_imports(),
            vec![
                "/pkg/frontend.1.js",
                "/pkg/__wasm_split.2.js",
                "/pkg/snippets/frontend-abc/inline0.3.js"
            ]
        );
        assert_eq!(Assets::default().entry_imports(), vec!["/pkg/frontend.js"]);
    }

    #[test]
    fn the_boot_script_starts_the_hashed_app_and_hydrates_once_the_document_is_parsed_and_drawn() {
        let assets = Assets::from_manifest(
            r#"{"/pkg/frontend.js": "/pkg/frontend.1.js",
                "/pkg/frontend.wasm": "/pkg/frontend.2.wasm"}"#,
        )
        .unwrap();
        let script = assets.boot_script();
        assert!(script.ends_with(r#"})("/pkg/frontend.1.js","/pkg/frontend.2.wasm");"#));
        assert!(script.contains("WebAssembly.compileStreaming(bytes)"));
        assert!(script.contains("mod.default({module_or_path:m})"));
        assert!(script.contains("addEventListener('DOMContentLoaded',go)"));
        // Hydration waits for the server's page to be drawn once (when visible).
        assert!(script.contains("painted(function(){hydrated(replay);mod.hydrate();"));
        assert!(script.contains("requestAnimationFrame(function(){setTimeout(f,0);})"));
        // A press before hydration is held, then replayed.
        assert!(script.contains("addEventListener('click',hold,true)"));
        assert!(script.contains("b.click()"));
        assert!(script.contains("hydrated(replay)"));
        // So is a control's change: its events again, before the press.
        assert!(script.contains("addEventListener('change',note,true)"));
        assert!(script.find("c.dispatchEvent(new Event('change'") < script.find("b.click()"));
        assert!(!script.contains("</script"));
        // Without a manifest, the plain names `cargo xtask site` lays out.
        assert!(Assets::default()
            .boot_script()
            .ends_with(r#"})("/pkg/frontend.js","/pkg/frontend.wasm");"#));
    }

    #[test]
    fn only_a_known_language_makes_a_shell() {
        use crate::i18n::Lang;
        assert_eq!(shell_lang(Some("shell=el")), Some(Lang::El));
        assert_eq!(shell_lang(Some("a=1&shell=en")), Some(Lang::En));
        assert_eq!(shell_lang(Some("shell=fr")), None);
        assert_eq!(shell_lang(Some("shell=")), None);
        assert_eq!(shell_lang(None), None);
        assert_eq!(shell_request("/offline", Some("shell=el")), Some(Lang::El));
        assert_eq!(shell_request("/analysis", Some("shell=en")), Some(Lang::En));
        assert_eq!(shell_request("/players", Some("shell=el")), None);
    }

    #[test]
    fn a_bad_manifest_is_refused() {
        assert!(Assets::from_manifest("[1, 2]").is_err());
        assert!(Assets::from_manifest(r#"{"main.css": "/style/main.1.css"}"#).is_err());
    }
}
