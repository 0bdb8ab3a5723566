//! wasm-bindgen bindings to the parts of Three.js (0.187, `three.webgpu.js`) that
//! the board island uses. `cargo xtask site` reads this file: every type bound
//! with `js_namespace = THREE` (or `THREE_ADDONS`) is exported by the tree-shaken
//! bundle it builds, so a new binding needs no other change. Three.js is loaded
//! lazily (see [`start_renderer`]), one backend's bundle, and published as
//! `globalThis.THREE`, so these bindings use `js_namespace = THREE` and
//! hydration never waits for Three.js.

use js_sys::{Object, Promise};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

#[wasm_bindgen(inline_js = "
export async function start_renderer(canvas, webgl) {
  await new Promise((go) => setTimeout(go));
  const msaa = new URLSearchParams(location.search).get('msaa');
  const adapter = webgl || !globalThis.navigator || !navigator.gpu ? null :
    await navigator.gpu.requestAdapter({ featureLevel: 'compatibility' }).catch(() => null);
  let gpu = adapter !== null;
  for (;;) {
    const three = await (gpu ? import('three') : import('three/webgl'));
    globalThis.THREE = three;
    const software = gpu ? softwareAdapter(adapter) : softwareGl();
    const antialias = msaa === 'on' || (msaa !== 'off' && !software);
    const renderer = new three.WebGPURenderer({ canvas, antialias, alpha: true });
    try {
      await renderer.init();
      canvas.dataset.samples = renderer.samples;
      // A frame loop that sleeps: wake it when the canvas changes size.
      renderer.othelloSize = new ResizeObserver(() => wake(renderer));
      renderer.othelloSize.observe(canvas);
      return renderer;
    } catch (error) {
      console.warn('3D renderer:', error);
      if (!gpu) throw new Error('neither WebGPU nor WebGL 2 is available');
      gpu = false;
    }
  }
}
const SOFTWARE = /swiftshader|llvmpipe/i;
function softwareAdapter(adapter) {
  const info = adapter.info || {};
  return !!info.isFallbackAdapter || SOFTWARE.test(`${info.architecture} ${info.description}`);
}
function softwareGl() {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return false;
    const debug = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return SOFTWARE.test(name);
  } catch (error) {
    return false;
  }
}
export async function load_addons() {
  globalThis.THREE_ADDONS = await import('three/addons');
}
export function press_again(canvas, press) {
  canvas.dispatchEvent(new PointerEvent('pointerdown', press));
}
export function dispose_quietly(renderer) {
  renderer.othelloSize?.disconnect();
  renderer.dispose().catch(() => {});
}
export function sleep(renderer) {
  renderer._animation.stop();
}
export function wake(renderer) {
  renderer._animation.start();
}
export function context_back(canvas, webgl) {
  return new Promise((resolve) => {
    if (!webgl) return resolve(true);
    const timer = setTimeout(() => resolve(false), 10000);
    canvas.addEventListener('webglcontextrestored', () => {
      clearTimeout(timer);
      resolve(true);
    }, { once: true });
  });
}
")]
extern "C" {
    /// Loads Three.js through the page's import map and starts a renderer on
    /// `canvas`, from a task of its own (`setTimeout`): asking for an adapter
    /// makes the page wait on the GPU process (a command buffer created
    /// synchronously, ~80 ms in traces here), which would otherwise fall
    /// inside the page's hydration. Each backend has its own bundle (built by `cargo xtask site`
    /// with esbuild, exporting exactly the classes bound below,
    /// `js_namespace = THREE`, plus OrbitControls), and a page loads one:
    /// `three` (WebGPU) when the browser gives a WebGPU adapter and `webgl`
    /// is false, else `three/webgl` (WebGL 2). Where WebGPU has an adapter
    /// but the renderer still fails to start, it falls back to the WebGL 2
    /// bundle, as Three's own renderer falls back to its WebGL 2 backend.
    /// Publishes the loaded bundle as `globalThis.THREE`; resolves to the
    /// started `WebGPURenderer`.
    ///
    /// Multisampling (4× MSAA) is on unless the GPU is a software one
    /// (SwiftShader; llvmpipe, also lavapipe's name: the WebGPU adapter's info, or for
    /// WebGL 2 the renderer's name from a throwaway context): there every
    /// frame's four samples a pixel are drawn and resolved on the CPU, which
    /// cost this machine's browser suite ~15 % of its CPU
    /// (docs/BENCHMARKS.md). `?msaa=on` or `?msaa=off` in the page's
    /// address chooses. The canvas's `data-samples` says which it got (4 or 0).
    #[wasm_bindgen(catch)]
    pub async fn start_renderer(
        canvas: &HtmlCanvasElement,
        webgl: bool,
    ) -> Result<JsValue, JsValue>;

    /// Loads the addons' bundle (`three/addons` in the import map: the orbit
    /// controls, built on the page's `globalThis.THREE`, so only after
    /// [`start_renderer`]) and publishes it as `globalThis.THREE_ADDONS`.
    #[wasm_bindgen(catch)]
    pub async fn load_addons() -> Result<JsValue, JsValue>;

    /// Presses the pointer of `press` (a `pointerdown` that came before the
    /// orbit controls) on `canvas` again, for the controls to start its drag.
    pub fn press_again(canvas: &HtmlCanvasElement, press: &JsValue);

    /// After a lost device: resolves to true when a new renderer may start
    /// on `canvas` — at once for WebGPU; for WebGL 2 when the browser
    /// restores the context (`webglcontextrestored`), or to false after 10 s
    /// without (the browser has turned 3D off).
    pub fn context_back(canvas: &HtmlCanvasElement, webgl: bool) -> Promise;

    /// Frees a renderer; a failure (a lost device has nothing left to free)
    /// is ignored.
    pub fn dispose_quietly(renderer: &WebGPURenderer);

    /// Stops the renderer's frame loop (Three.js keeps one running from its
    /// first render on): an idle board asks the browser for no frames.
    pub fn sleep(renderer: &WebGPURenderer);

    /// Starts the frame loop again (nothing if it runs). The renderer also
    /// wakes itself when the canvas changes size (a `ResizeObserver` set up
    /// in [`start_renderer`], disconnected by [`dispose_quietly`]).
    pub fn wake(renderer: &WebGPURenderer);
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = THREE, js_name = EventDispatcher)]
    pub type EventDispatcher;

    #[wasm_bindgen(js_namespace = THREE, extends = EventDispatcher)]
    pub type Object3D;
    #[wasm_bindgen(method)]
    pub fn add(this: &Object3D, child: &Object3D);
    #[wasm_bindgen(method)]
    pub fn remove(this: &Object3D, child: &Object3D);
    #[wasm_bindgen(method, getter)]
    pub fn position(this: &Object3D) -> Vector3;
    #[wasm_bindgen(method, getter)]
    pub fn rotation(this: &Object3D) -> Euler;
    #[wasm_bindgen(method, getter)]
    pub fn scale(this: &Object3D) -> Vector3;
    #[wasm_bindgen(method, setter)]
    pub fn set_visible(this: &Object3D, visible: bool);
    #[wasm_bindgen(method, setter, js_name = castShadow)]
    pub fn set_cast_shadow(this: &Object3D, value: bool);
    #[wasm_bindgen(method, setter, js_name = receiveShadow)]
    pub fn set_receive_shadow(this: &Object3D, value: bool);
    #[wasm_bindgen(method, js_name = lookAt)]
    pub fn look_at(this: &Object3D, x: f64, y: f64, z: f64);
    #[wasm_bindgen(method, js_name = updateMatrixWorld)]
    pub fn update_matrix_world(this: &Object3D);

    #[wasm_bindgen(js_namespace = THREE, extends = Object3D)]
    pub type Scene;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new() -> Scene;

    #[wasm_bindgen(js_namespace = THREE, extends = Object3D)]
    pub type Group;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new() -> Group;

    #[wasm_bindgen(js_namespace = THREE, extends = Object3D)]
    pub type PerspectiveCamera;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(fov: f64, aspect: f64, near: f64, far: f64) -> PerspectiveCamera;
    #[wasm_bindgen(method, setter)]
    pub fn set_aspect(this: &PerspectiveCamera, aspect: f64);
    #[wasm_bindgen(method, js_name = updateProjectionMatrix)]
    pub fn update_projection_matrix(this: &PerspectiveCamera);

    #[wasm_bindgen(js_namespace = THREE, extends = Object3D)]
    pub type Mesh;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(geometry: &BufferGeometry, material: &Material) -> Mesh;
    #[wasm_bindgen(method, getter)]
    pub fn material(this: &Mesh) -> Material;

    #[wasm_bindgen(js_namespace = THREE, extends = Object3D)]
    pub type Light;
    #[wasm_bindgen(method, getter)]
    pub fn shadow(this: &Light) -> Object;

    #[wasm_bindgen(js_namespace = THREE, extends = Light)]
    pub type DirectionalLight;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(color: u32, intensity: f64) -> DirectionalLight;

    #[wasm_bindgen(js_namespace = THREE, extends = Light)]
    pub type HemisphereLight;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(sky: u32, ground: u32, intensity: f64) -> HemisphereLight;

    #[wasm_bindgen(js_namespace = THREE)]
    pub type BufferGeometry;
    #[wasm_bindgen(method, js_name = rotateX)]
    pub fn rotate_x(this: &BufferGeometry, angle: f64) -> BufferGeometry;
    #[wasm_bindgen(method)]
    pub fn translate(this: &BufferGeometry, x: f64, y: f64, z: f64) -> BufferGeometry;
    #[wasm_bindgen(method)]
    pub fn dispose(this: &BufferGeometry);

    #[wasm_bindgen(js_namespace = THREE, extends = BufferGeometry)]
    pub type BoxGeometry;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(width: f64, height: f64, depth: f64) -> BoxGeometry;

    #[wasm_bindgen(js_namespace = THREE, extends = BufferGeometry)]
    pub type PlaneGeometry;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(width: f64, height: f64) -> PlaneGeometry;

    #[wasm_bindgen(js_namespace = THREE, extends = BufferGeometry)]
    pub type CylinderGeometry;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(top: f64, bottom: f64, height: f64, segments: u32) -> CylinderGeometry;

    #[wasm_bindgen(js_namespace = THREE, extends = BufferGeometry)]
    pub type RingGeometry;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(inner: f64, outer: f64, segments: u32) -> RingGeometry;

    #[wasm_bindgen(js_namespace = THREE)]
    pub type Material;
    #[wasm_bindgen(method, setter)]
    pub fn set_opacity(this: &Material, value: f64);
    #[wasm_bindgen(method, getter)]
    pub fn color(this: &Material) -> Color;
    #[wasm_bindgen(method)]
    pub fn dispose(this: &Material);

    #[wasm_bindgen(js_namespace = THREE, extends = Material)]
    pub type MeshStandardMaterial;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(params: &Object) -> MeshStandardMaterial;

    #[wasm_bindgen(js_namespace = THREE, extends = Material)]
    pub type MeshBasicMaterial;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(params: &Object) -> MeshBasicMaterial;

    /// A texture drawn from a 2D canvas (the hint's numbers on the squares).
    #[wasm_bindgen(js_namespace = THREE)]
    pub type CanvasTexture;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(canvas: &web_sys::HtmlCanvasElement) -> CanvasTexture;
    #[wasm_bindgen(method)]
    pub fn dispose(this: &CanvasTexture);

    #[wasm_bindgen(js_namespace = THREE)]
    pub type Color;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(hex: u32) -> Color;
    #[wasm_bindgen(method, js_name = setHex)]
    pub fn set_hex(this: &Color, hex: u32);

    #[wasm_bindgen(js_namespace = THREE)]
    pub type Vector3;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(x: f64, y: f64, z: f64) -> Vector3;
    #[wasm_bindgen(method)]
    pub fn set(this: &Vector3, x: f64, y: f64, z: f64) -> Vector3;
    #[wasm_bindgen(method, js_name = setScalar)]
    pub fn set_scalar(this: &Vector3, value: f64) -> Vector3;
    #[wasm_bindgen(method)]
    pub fn project(this: &Vector3, camera: &PerspectiveCamera) -> Vector3;
    #[wasm_bindgen(method, getter)]
    pub fn x(this: &Vector3) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn y(this: &Vector3) -> f64;
    #[wasm_bindgen(method, getter)]
    pub fn z(this: &Vector3) -> f64;
    #[wasm_bindgen(method, setter, js_name = y)]
    pub fn set_y(this: &Vector3, value: f64);

    #[wasm_bindgen(js_namespace = THREE)]
    pub type Euler;
    #[wasm_bindgen(method, setter, js_name = x)]
    pub fn set_x(this: &Euler, value: f64);
    #[wasm_bindgen(method, setter, js_name = y)]
    pub fn set_y(this: &Euler, value: f64);
    #[wasm_bindgen(method, setter, js_name = z)]
    pub fn set_z(this: &Euler, value: f64);
    #[wasm_bindgen(method, getter, js_name = x)]
    pub fn angle_x(this: &Euler) -> f64;
    #[wasm_bindgen(method, getter, js_name = y)]
    pub fn angle_y(this: &Euler) -> f64;
    #[wasm_bindgen(method, getter, js_name = z)]
    pub fn angle_z(this: &Euler) -> f64;
    #[wasm_bindgen(method)]
    pub fn set(this: &Euler, x: f64, y: f64, z: f64) -> Euler;

    #[wasm_bindgen(js_namespace = THREE)]
    pub type Vector2;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(x: f64, y: f64) -> Vector2;

    #[wasm_bindgen(js_namespace = THREE)]
    pub type Raycaster;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new() -> Raycaster;
    #[wasm_bindgen(method, js_name = setFromCamera)]
    pub fn set_from_camera(this: &Raycaster, coords: &Vector2, camera: &PerspectiveCamera);
    #[wasm_bindgen(method, js_name = intersectObject)]
    pub fn intersect_object(this: &Raycaster, object: &Object3D, recursive: bool) -> js_sys::Array;

    #[wasm_bindgen(js_namespace = THREE)]
    pub type RenderTarget;
    #[wasm_bindgen(constructor, js_namespace = THREE)]
    pub fn new(width: u32, height: u32) -> RenderTarget;
    #[wasm_bindgen(method)]
    pub fn dispose(this: &RenderTarget);

    #[wasm_bindgen(js_namespace = THREE)]
    pub type WebGPURenderer;
    #[wasm_bindgen(method, js_name = setSize)]
    pub fn set_size(this: &WebGPURenderer, width: f64, height: f64, update_style: bool);
    #[wasm_bindgen(method, js_name = setPixelRatio)]
    pub fn set_pixel_ratio(this: &WebGPURenderer, ratio: f64);
    #[wasm_bindgen(method, js_name = setClearColor)]
    pub fn set_clear_color(this: &WebGPURenderer, color: u32, alpha: f64);
    #[wasm_bindgen(method)]
    pub fn render(this: &WebGPURenderer, scene: &Scene, camera: &PerspectiveCamera);
    #[wasm_bindgen(method, js_name = setRenderTarget)]
    pub fn set_render_target(this: &WebGPURenderer, target: &JsValue);
    #[wasm_bindgen(method, js_name = readRenderTargetPixelsAsync)]
    pub fn read_render_target_pixels_async(
        this: &WebGPURenderer,
        target: &RenderTarget,
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    ) -> Promise;
    #[wasm_bindgen(method, js_name = setAnimationLoop)]
    pub fn set_animation_loop(this: &WebGPURenderer, callback: &JsValue);

    #[wasm_bindgen(method, getter)]
    pub fn backend(this: &WebGPURenderer) -> Object;
    #[wasm_bindgen(method, getter, js_name = shadowMap)]
    pub fn shadow_map(this: &WebGPURenderer) -> Object;

    #[wasm_bindgen(js_namespace = THREE_ADDONS)]
    pub type OrbitControls;
    #[wasm_bindgen(constructor, js_namespace = THREE_ADDONS)]
    pub fn new(camera: &PerspectiveCamera, element: &web_sys::HtmlCanvasElement) -> OrbitControls;
    #[wasm_bindgen(method)]
    pub fn update(this: &OrbitControls) -> bool;
    #[wasm_bindgen(method)]
    pub fn dispose(this: &OrbitControls);
    #[wasm_bindgen(method, js_name = addEventListener)]
    pub fn add_event_listener(this: &OrbitControls, name: &str, listener: &js_sys::Function);
}

/// A plain JS object built from `(key, value)` pairs, for Three.js parameters.
pub fn params(pairs: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    for (key, value) in pairs {
        let _ = js_sys::Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object
}

/// Sets a property on a JS object, ignoring failure (used for Three.js options).
pub fn set_property(target: &JsValue, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

/// Reads a property from a JS object.
pub fn property(target: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}
