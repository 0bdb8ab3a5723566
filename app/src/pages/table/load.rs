//! Loading a table's page: its view, asked again for a moment while the
//! server does not have the table yet.

use crate::api::get_table;
use crate::protocol::TableView;

/// The table, asked again (after 0.3 s, then 0.9 s) while the server says
/// there is no such table: a tournament's page names a new pairing's table a
/// moment before the director has seated its players there (the pairing is
/// stored first, then the table made), and the player's page goes to it at
/// once. A table that is truly not there says so 1.2 s later than before. The
/// server's render asks once.
pub(super) async fn get_table_soon(
    table: crate::protocol::TableId,
) -> Result<TableView, crate::api::CommandError> {
    #[cfg(feature = "hydrate")]
    for wait_ms in [300, 900] {
        match get_table(table.clone()).await {
            Err(error) if error.kind == crate::api::ErrorKind::NotFound => pause(wait_ms).await,
            answer => return answer,
        }
    }
    get_table(table).await
}

/// Waits `ms` milliseconds on the browser's timer.
#[cfg(feature = "hydrate")]
async fn pause(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = send_wrapper::SendWrapper::new(wasm_bindgen_futures::JsFuture::from(promise)).await;
}
