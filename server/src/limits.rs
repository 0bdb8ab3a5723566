//! Per-session and per-IP limits on what one visitor may hold at once: open
//! WebSockets and live tables. Each refusal is a clear message; nothing a
//! player does at the defaults comes near them.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Settings (flags `--max-tables-per-session`, `--max-tables-per-ip`,
/// `--max-sockets-per-session`, `--max-sockets-per-ip`).
#[derive(Clone, Copy, Debug)]
pub struct LimitConfig {
    pub tables_per_session: usize,
    pub tables_per_ip: usize,
    pub sockets_per_session: usize,
    pub sockets_per_ip: usize,
}

#[derive(Default)]
struct Counts {
    sockets_by_session: HashMap<String, usize>,
    sockets_by_ip: HashMap<IpAddr, usize>,
    /// Tables created, by `s:<session>` and `ip:<address>`.
    tables_by: HashMap<String, Vec<String>>,
}

/// The live counts behind the limits.
pub struct Limits {
    config: LimitConfig,
    counts: Arc<Mutex<Counts>>,
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
    pub fn open_socket(&self, session: &str, ip: Option<IpAddr>) -> Result<SocketPermit, String> {
        let mut counts = self
            .counts
            .lock()
            .map_err(|_| "the server is busy, try again".to_string())?;
        let by_session = counts.sockets_by_session.get(session).copied().unwrap_or(0);
        if by_session >= self.config.sockets_per_session {
            return Err(format!(
                "too many open connections for this browser (limit {}): close other tabs",
                self.config.sockets_per_session
            ));
        }
        if let Some(ip) = ip {
            let by_ip = counts.sockets_by_ip.get(&ip).copied().unwrap_or(0);
            if by_ip >= self.config.sockets_per_ip {
                return Err(format!(
                    "too many open connections from your address (limit {})",
                    self.config.sockets_per_ip
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

    /// Whether `session` (from `ip`) may create another table; `live` tells
    /// which of the tables they created still exist (the others are forgotten).
    pub fn may_create_table(
        &self,
        session: &str,
        ip: Option<IpAddr>,
        live: impl Fn(&str) -> bool,
    ) -> Result<(), String> {
        let mut counts = self
            .counts
            .lock()
            .map_err(|_| "the server is busy, try again".to_string())?;
        let mut checks = vec![(
            format!("s:{session}"),
            self.config.tables_per_session,
            "for this browser",
        )];
        if let Some(ip) = ip {
            checks.push((
                format!("ip:{ip}"),
                self.config.tables_per_ip,
                "from your address",
            ));
        }
        for (key, limit, whose) in checks {
            let held = match counts.tables_by.get_mut(&key) {
                Some(tables) => {
                    tables.retain(|id| live(id));
                    tables.len()
                }
                None => 0,
            };
            if held == 0 {
                counts.tables_by.remove(&key);
            }
            if held >= limit {
                return Err(format!(
                    "too many live tables {whose} (limit {limit}): finish or leave some first"
                ));
            }
        }
        Ok(())
    }

    /// Records a table created by `session` from `ip`.
    pub fn table_created(&self, session: &str, ip: Option<IpAddr>, id: &str) {
        if let Ok(mut counts) = self.counts.lock() {
            counts
                .tables_by
                .entry(format!("s:{session}"))
                .or_default()
                .push(id.to_string());
            if let Some(ip) = ip {
                counts
                    .tables_by
                    .entry(format!("ip:{ip}"))
                    .or_default()
                    .push(id.to_string());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits::new(LimitConfig {
            tables_per_session: 2,
            tables_per_ip: 2,
            sockets_per_session: 2,
            sockets_per_ip: 3,
        })
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
        assert!(refused.contains("your address"), "{refused}");
        drop(a);
        assert!(limits.open_socket("c", Some(ip)).is_ok());
    }

    #[test]
    fn tables_count_only_live_ones_per_session_and_ip() {
        let limits = limits();
        let ip: IpAddr = "192.0.2.1".parse().expect("ip");
        limits
            .may_create_table("a", Some(ip), |_| true)
            .expect("first");
        limits.table_created("a", Some(ip), "t1");
        limits.table_created("a", Some(ip), "t2");
        let refused = limits.may_create_table("a", Some(ip), |_| true).err();
        assert!(refused.is_some_and(|m| m.contains("this browser")));
        let refused = limits.may_create_table("b", Some(ip), |_| true).err();
        assert!(refused.is_some_and(|m| m.contains("your address")));
        assert!(limits.may_create_table("b", None, |_| true).is_ok());
        assert!(limits
            .may_create_table("a", Some(ip), |id| id != "t1")
            .is_ok());
    }
}
