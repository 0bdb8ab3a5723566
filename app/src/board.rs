//! The board component: server-rendered frame around a `<canvas>` that the 3D
//! island (in the `frontend` crate) takes over after hydration.

use crate::protocol::BoardSnapshot;
use leptos::prelude::*;

/// What the island reports back to the page.
#[derive(Clone, Copy)]
pub struct SceneHooks {
    /// A square (0..64) was picked by the player.
    pub on_square: Callback<u8>,
    /// The renderer backend in use: `webgpu`, `webgl2` or `2d`.
    pub on_backend: Callback<String>,
}

/// A running 3D scene.
pub trait BoardScene {
    /// Shows a new board state (animating what changed).
    fn show(&self, snapshot: &BoardSnapshot);
    /// Stops rendering and frees GPU resources.
    fn dispose(&self);
}

/// Builds the 3D scene on a canvas. Injected by the `frontend` crate.
#[cfg(feature = "hydrate")]
#[derive(Clone, Copy)]
pub struct SceneFactory(
    pub fn(web_sys::HtmlCanvasElement, SceneHooks, &BoardSnapshot) -> Box<dyn BoardScene>,
);

/// The 3D board. `snapshot` is the server's state; clicks go to `on_square`.
#[component]
pub fn Board3D(
    #[prop(into)] snapshot: Signal<BoardSnapshot>,
    #[prop(into)] on_square: Callback<u8>,
) -> impl IntoView {
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let (backend, set_backend) = signal(String::from("loading"));
    #[cfg(feature = "hydrate")]
    {
        let factory = use_context::<SceneFactory>();
        let scene: StoredValue<Option<Box<dyn BoardScene>>, LocalStorage> =
            StoredValue::new_local(None);
        canvas.on_load(move |element| {
            let Some(factory) = factory else { return };
            let hooks = SceneHooks {
                on_square,
                on_backend: Callback::new(move |name: String| set_backend.set(name)),
            };
            let built = (factory.0)(element, hooks, &snapshot.get_untracked());
            scene.set_value(Some(built));
        });
        Effect::new(move |_| {
            let current = snapshot.get();
            scene.with_value(|s| {
                if let Some(s) = s {
                    s.show(&current);
                }
            });
        });
        on_cleanup(move || {
            scene.with_value(|s| {
                if let Some(s) = s {
                    s.dispose();
                }
            })
        });
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (snapshot, on_square, set_backend);
    view! {
        <div class="board-frame">
            <canvas node_ref=canvas id="board-canvas" aria-label="Othello board"></canvas>
            <p class="backend" id="backend" data-backend=move || backend.get()>
                "Renderer: "
                {move || backend.get()}
            </p>
        </div>
    }
}
