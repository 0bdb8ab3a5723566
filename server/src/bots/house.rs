//! House bots (docs/PRODUCT.md, Bots; deploy/README.md, House bots): the
//! site's own bots, one per strength. Each is an ordinary bot account played
//! by an `othello bot` process through the Bot API, like any engine author's
//! bot — no private path into the server. What is the operator's here is
//! only setting the accounts up: `othello-server admin house-bots --dir D`
//! makes each account if it is missing (with no password: no one signs in
//! as it), makes it a bot, and writes a new token to `D/<name>.token` (mode
//! 0600) unless the file already holds a live token of that bot.
//! `deploy/house-bots.sh` runs it, then one bridge per bot at a lower CPU
//! priority than the server; `cargo xtask run` and the deploy kit's
//! `othello-house-bots.service` run that script, so a fresh database gets
//! its bots and a running one keeps them.

use crate::store::bots::Upgrade;
use crate::store::Store;
use std::path::Path;

/// The house bots: name and the bridge's deepest search (`othello bot
/// --max-depth`), weakest first — from the lobby's depth-1 AI to a search as
/// deep as its strongest level's.
pub const HOUSE_BOTS: [(&str, u32); 4] = [
    ("Pebble-bot", 1),
    ("Ripple-bot", 3),
    ("Tide-bot", 6),
    ("Storm-bot", 10),
];

/// What setting a house bot up did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provisioned {
    /// The account, the bot flag and a token were all made.
    Created,
    /// The bot existed; a new token was written (the file held none, or a
    /// dead one).
    NewToken,
    /// The file already holds a live token of this bot: nothing changed.
    Kept,
}

/// Sets up the house bot `name` (see the module's words); the token file is
/// read and written by the caller's user.
pub async fn provision(
    store: &Store,
    name: &str,
    token_file: &Path,
    now: i64,
) -> Result<Provisioned, String> {
    crate::accounts::check_name(name).map_err(|e| format!("{name}: {}", e.msg.key))?;
    let failed = |e: crate::store::StoreError| e.to_string();
    if let Ok(text) = std::fs::read_to_string(token_file) {
        let token = text.trim();
        if super::well_formed(token) {
            let owner = store
                .bot_of_token(&super::token_hash(token))
                .await
                .map_err(failed)?;
            if owner.is_some_and(|o| o.name.eq_ignore_ascii_case(name)) {
                return Ok(Provisioned::Kept);
            }
        }
    }
    let key = name.to_ascii_lowercase();
    let (account, created) = match store.account_by_key(&key).await.map_err(failed)? {
        Some(account) => (account.id, false),
        None => {
            let fold = crate::accounts::fold(name);
            // "!" is no password hash: signing in as the bot always fails.
            let id = store
                .create_account(name, &key, &fold, "!", now)
                .await
                .map_err(failed)?
                .ok_or_else(|| format!("{name}: the name is taken by a look-alike"))?;
            (id, true)
        }
    };
    match store.make_bot(account).await.map_err(failed)? {
        Upgrade::Done | Upgrade::Already => {}
        Upgrade::Played => {
            return Err(format!(
                "{name}: a person's account that has played; choose another name"
            ))
        }
        Upgrade::Missing => return Err(format!("{name}: the account vanished")),
    }
    let (id, token) = super::new_token();
    store
        .create_bot_token(&id, &super::token_hash(&token), account, "house", now)
        .await
        .map_err(failed)?;
    write_secret(token_file, &token).map_err(|e| format!("{}: {e}", token_file.display()))?;
    store
        .log_admin(
            "house-bot",
            Some(account),
            &format!("house bot {name}: token {id} written"),
            now,
        )
        .await
        .map_err(failed)?;
    Ok(if created {
        Provisioned::Created
    } else {
        Provisioned::NewToken
    })
}

/// Writes `token` to `path` (its folder made), readable by its owner only.
fn write_secret(path: &Path, token: &str) -> std::io::Result<()> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    use std::io::Write;
    let mut file = options.open(path)?;
    file.write_all(format!("{token}\n").as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}
