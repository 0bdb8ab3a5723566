//! Per-session and per-address limits on what one visitor may hold at once:
//! open WebSockets, and every kind of thing a command creates (tables, lab
//! games, running analyses). Each refusal is a clear message; nothing a
//! player does at the defaults comes near them (docs/SECURITY.md states each
//! default and why).
//!
//! Creating is two steps, and the check and the count are one: the service
//! [`Limits::reserve`]s a place under one lock (the session's and the
//! address's counts both go up, or neither does), creates the thing, then
//! [`Reservation::keep`]s the place under its id; a reservation dropped
//! unkept (the creation failed) gives the place back. So 200 parallel
//! requests with one cookie get exactly the cap. A place is held while the
//! thing is live (the `live` test the service passes: a table not yet
//! expired, a lab game not yet deleted, an analysis still running).

use app::i18n::Msg;
use app::msg;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

pub use app::api::backend::Caller;

/// What a command creates, each counted while it lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Tables: `create_table`, `create_table_from`, `new_table`, quick match.
    Table,
    /// Lab games: `lab_create` and `lab_copy`.
    LabGame,
    /// Analyses running (`analysis_start`).
    Analysis,
}

/// The caps of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    pub per_session: usize,
    pub per_address: usize,
}

/// Settings (flags `--max-tables-per-session`, `--max-tables-per-ip`,
/// `--max-lab-games-per-session`, `--max-lab-games-per-ip`,
/// `--max-analyses-per-session`, `--max-analyses-per-ip`,
/// `--max-sockets-per-session`, `--max-sockets-per-ip`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitConfig {
    pub tables: Cap,
    pub lab_games: Cap,
    pub analyses: Cap,
    pub sockets_per_session: usize,
    pub sockets_per_ip: usize,
    /// Paid lab explanations one address may start per UTC day (counted in
    /// the database: `crate::lab::budget`).
    pub explanations_per_address_day: u32,
}

impl LimitConfig {
    /// The limits of a configuration.
    pub fn of(config: &crate::config::Config) -> Self {
        LimitConfig {
            tables: Cap {
                per_session: config.max_tables_per_session,
                per_address: config.max_tables_per_ip,
            },
            lab_games: Cap {
                per_session: config.max_lab_games_per_session,
                per_address: config.max_lab_games_per_ip,
            },
            analyses: Cap {
                per_session: config.max_analyses_per_session,
                per_address: config.max_analyses_per_ip,
            },
            sockets_per_session: config.max_sockets_per_session,
            sockets_per_ip: config.max_sockets_per_ip,
            explanations_per_address_day: config.explain_daily_per_ip,
        }
    }

    fn cap(&self, kind: Kind) -> Cap {
        match kind {
            Kind::Table => self.tables,
            Kind::LabGame => self.lab_games,
            Kind::Analysis => self.analyses,
        }
    }
}

impl Default for LimitConfig {
    /// The flags' defaults.
    fn default() -> Self {
        Self::of(&crate::config::Config::for_tests(Default::default()))
    }
}

/// Whose count: a session, or an address key (IPv4, or an IPv6 /64).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Owner {
    Session(String),
    Address(IpAddr),
}

/// What one owner holds of one kind.
#[derive(Default)]
struct Holding {
    /// Ids created and kept.
    live: Vec<String>,
    /// Places reserved by creations in progress.
    reserved: usize,
}

#[derive(Default)]
struct Counts {
    sockets_by_session: HashMap<String, usize>,
    sockets_by_ip: HashMap<IpAddr, usize>,
    held: HashMap<(Kind, Owner), Holding>,
}

/// The live counts behind the limits.
pub struct Limits {
    config: LimitConfig,
    counts: Arc<Mutex<Counts>>,
}

impl std::fmt::Debug for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limits")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// An open socket's place in the counts; given back when dropped.
pub struct SocketPermit {
    counts: Arc<Mutex<Counts>>,
    session: String,
    ip: Option<IpAddr>,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let Ok(mut counts) = self.counts.lock() else {
            return;
        };
        if let Some(n) = counts.sockets_by_session.get_mut(&self.session) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.sockets_by_session.remove(&self.session);
            }
        }
        if let Some(ip) = self.ip {
            if let Some(n) = counts.sockets_by_ip.get_mut(&ip) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    counts.sockets_by_ip.remove(&ip);
                }
            }
        }
    }
}

/// A place reserved for one creation: [`Reservation::keep`] it under the new
/// id once created; dropped unkept, the place is given back.
#[must_use = "a reservation is given back when dropped; keep it once created"]
pub struct Reservation {
    counts: Arc<Mutex<Counts>>,
    kind: Kind,
    owners: Vec<Owner>,
    kept: bool,
}

impl Reservation {
    /// The address the place is counted against, if known.
    pub fn address(&self) -> Option<IpAddr> {
        self.owners.iter().find_map(|owner| match owner {
            Owner::Address(address) => Some(*address),
            Owner::Session(_) => None,
        })
    }

    /// The thing was created as `id`: its place is held while it lives.
    pub fn keep(mut self, id: &str) {
        self.kept = true;
        if let Ok(mut counts) = self.counts.lock() {
            for owner in &self.owners {
                let holding = counts.held.entry((self.kind, owner.clone())).or_default();
                holding.reserved = holding.reserved.saturating_sub(1);
                holding.live.push(id.to_string());
            }
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        let Ok(mut counts) = self.counts.lock() else {
            return;
        };
        for owner in &self.owners {
            let key = (self.kind, owner.clone());
            if let Some(holding) = counts.held.get_mut(&key) {
                holding.reserved = holding.reserved.saturating_sub(1);
                if holding.reserved == 0 && holding.live.is_empty() {
                    counts.held.remove(&key);
                }
            }
        }
    }
}

fn refusal(kind: Kind, limit: usize, by_session: bool) -> Msg {
    match (kind, by_session) {
        (Kind::Table, true) => msg!("srv-tables-browser", limit = limit),
        (Kind::Table, false) => msg!("srv-tables-address", limit = limit),
        (Kind::LabGame, true) => msg!("srv-lab-games-browser", limit = limit),
        (Kind::LabGame, false) => msg!("srv-lab-games-address", limit = limit),
        (Kind::Analysis, true) => msg!("srv-analyses-browser", limit = limit),
        (Kind::Analysis, false) => msg!("srv-analyses-address", limit = limit),
    }
}

impl Limits {
    pub fn new(config: LimitConfig) -> Self {
        Self {
            config,
            counts: Arc::new(Mutex::new(Counts::default())),
        }
    }

    pub fn config(&self) -> LimitConfig {
        self.config
    }

    /// A permit to open one more socket, or the refusal's message.
    pub fn open_socket(&self, session: &str, ip: Option<IpAddr>) -> Result<SocketPermit, Msg> {
        let mut counts = self.counts.lock().map_err(|_| msg!("srv-busy"))?;
        let by_session = counts.sockets_by_session.get(session).copied().unwrap_or(0);
        if by_session >= self.config.sockets_per_session {
            return Err(msg!(
                "srv-sockets-browser",
                limit = self.config.sockets_per_session
            ));
        }
        if let Some(ip) = ip {
            let by_ip = counts.sockets_by_ip.get(&ip).copied().unwrap_or(0);
            if by_ip >= self.config.sockets_per_ip {
                return Err(msg!(
                    "srv-sockets-address",
                    limit = self.config.sockets_per_ip
                ));
            }
            *counts.sockets_by_ip.entry(ip).or_insert(0) += 1;
        }
        *counts
            .sockets_by_session
            .entry(session.to_string())
            .or_insert(0) += 1;
        Ok(SocketPermit {
            counts: self.counts.clone(),
            session: session.to_string(),
            ip,
        })
    }

    /// A place counted against nobody: a thing another capped thing made
    /// (a tournament's game; the tournament itself is capped).
    pub fn uncounted(&self, kind: Kind) -> Reservation {
        Reservation {
            counts: self.counts.clone(),
            kind,
            owners: Vec::new(),
            kept: false,
        }
    }

    /// Reserves a place for `caller` to create one more of `kind`, checked
    /// and counted at once for their session and their address; `live`
    /// tells which of the ids they hold still count (the others are
    /// forgotten). The refusal's message otherwise.
    pub fn reserve(
        &self,
        kind: Kind,
        caller: &Caller,
        live: impl Fn(&str) -> bool,
    ) -> Result<Reservation, Msg> {
        let cap = self.config.cap(kind);
        let mut owners = vec![(
            Owner::Session(caller.session.as_str().to_string()),
            cap.per_session,
            true,
        )];
        if let Some(address) = caller.address {
            owners.push((Owner::Address(address), cap.per_address, false));
        }
        let mut counts = self.counts.lock().map_err(|_| msg!("srv-busy"))?;
        for (owner, limit, by_session) in &owners {
            let held = match counts.held.get_mut(&(kind, owner.clone())) {
                Some(holding) => {
                    holding.live.retain(|id| live(id));
                    holding.live.len() + holding.reserved
                }
                None => 0,
            };
            if held >= *limit {
                return Err(refusal(kind, *limit, *by_session));
            }
        }
        for (owner, _, _) in &owners {
            counts
                .held
                .entry((kind, owner.clone()))
                .or_default()
                .reserved += 1;
        }
        Ok(Reservation {
            counts: self.counts.clone(),
            kind,
            owners: owners.into_iter().map(|(owner, _, _)| owner).collect(),
            kept: false,
        })
    }

    /// Counts `id` (of `kind`, live) against `session` without a check: what
    /// a restart finds each session holds.
    pub fn restored(&self, kind: Kind, session: &str, id: &str) {
        if let Ok(mut counts) = self.counts.lock() {
            counts
                .held
                .entry((kind, Owner::Session(session.to_string())))
                .or_default()
                .live
                .push(id.to_string());
        }
    }

    /// Forgets what is no longer live (`live(kind, id)`), and every owner
    /// left holding nothing: the counts' memory stays bounded by what is
    /// live (called by the sweeper).
    pub fn sweep(&self, live: impl Fn(Kind, &str) -> bool) {
        if let Ok(mut counts) = self.counts.lock() {
            counts.held.retain(|(kind, _), holding| {
                holding.live.retain(|id| live(*kind, id));
                holding.reserved > 0 || !holding.live.is_empty()
            });
        }
    }

    /// How many owners the counts remember (sessions and addresses, all kinds).
    pub fn remembered(&self) -> usize {
        self.counts.lock().map_or(0, |c| {
            c.held.len() + c.sockets_by_session.len() + c.sockets_by_ip.len()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::protocol::Session;

    fn limits() -> Limits {
        let cap = Cap {
            per_session: 2,
            per_address: 2,
        };
        Limits::new(LimitConfig {
            tables: cap,
            lab_games: cap,
            analyses: Cap {
                per_session: 1,
                per_address: 3,
            },
            sockets_per_session: 2,
            sockets_per_ip: 3,
            explanations_per_address_day: 10,
        })
    }

    fn caller(session: &str, ip: Option<&str>) -> Caller {
        Caller {
            session: Session::new(session.to_string()),
            address: ip.map(|ip| ip.parse().expect("ip")),
            browser: None,
            device: None,
        }
    }

    #[test]
    fn sockets_are_counted_and_given_back() {
        let limits = limits();
        let ip: IpAddr = "192.0.2.1".parse().expect("ip");
        let a = limits.open_socket("a", Some(ip)).expect("first");
        let _b = limits.open_socket("a", Some(ip)).expect("second");
        assert!(limits.open_socket("a", Some(ip)).is_err(), "session limit");
        let _c = limits.open_socket("b", Some(ip)).expect("other session");
        let refused = limits.open_socket("c", Some(ip)).err().expect("ip limit");
        assert_eq!(refused.key, "srv-sockets-address", "{refused:?}");
        drop(a);
        assert!(limits.open_socket("c", Some(ip)).is_ok());
    }

    #[test]
    fn creations_count_only_live_ones_per_session_and_address() {
        let limits = limits();
        let a = caller("a", Some("192.0.2.1"));
        limits
            .reserve(Kind::Table, &a, |_| true)
            .expect("first")
            .keep("t1");
        limits
            .reserve(Kind::Table, &a, |_| true)
            .expect("second")
            .keep("t2");
        let refused = limits.reserve(Kind::Table, &a, |_| true).err();
        assert!(refused.is_some_and(|m| m.key == "srv-tables-browser"));
        let b = caller("b", Some("192.0.2.1"));
        let refused = limits.reserve(Kind::Table, &b, |_| true).err();
        assert!(refused.is_some_and(|m| m.key == "srv-tables-address"));
        assert!(limits
            .reserve(Kind::Table, &caller("b", None), |_| true)
            .is_ok());
        // Other kinds are counted apart.
        assert!(limits.reserve(Kind::LabGame, &a, |_| true).is_ok());
        // An expired table frees its place.
        assert!(limits.reserve(Kind::Table, &a, |id| id != "t1").is_ok());
    }

    #[test]
    fn a_reservation_holds_its_place_until_kept_or_dropped() {
        let limits = limits();
        let a = caller("a", Some("192.0.2.1"));
        let first = limits.reserve(Kind::Analysis, &a, |_| true).expect("first");
        // In progress: the place is taken.
        assert!(limits.reserve(Kind::Analysis, &a, |_| true).is_err());
        drop(first);
        let second = limits
            .reserve(Kind::Analysis, &a, |_| true)
            .expect("given back");
        second.keep("k");
        assert!(limits.reserve(Kind::Analysis, &a, |_| true).is_err());
        assert!(limits.reserve(Kind::Analysis, &a, |_| false).is_ok());
    }

    #[test]
    fn parallel_creations_get_exactly_the_cap() {
        let limits = Arc::new(limits());
        let a = caller("a", Some("192.0.2.1"));
        let threads: Vec<_> = (0..64)
            .map(|i| {
                let limits = limits.clone();
                let a = a.clone();
                std::thread::spawn(move || {
                    limits
                        .reserve(Kind::Table, &a, |_| true)
                        .map(|r| r.keep(&format!("t{i}")))
                        .is_ok()
                })
            })
            .collect();
        let created = threads
            .into_iter()
            .map(|t| t.join().expect("thread"))
            .filter(|ok| *ok)
            .count();
        assert_eq!(created, 2);
    }

    #[test]
    fn the_sweep_forgets_owners_holding_nothing() {
        let limits = limits();
        for i in 0..50 {
            limits
                .reserve(Kind::Table, &caller(&format!("s{i}"), None), |_| true)
                .expect("room")
                .keep(&format!("t{i}"));
        }
        assert_eq!(limits.remembered(), 50);
        limits.sweep(|_, id| id == "t7");
        assert_eq!(limits.remembered(), 1);
    }
}
