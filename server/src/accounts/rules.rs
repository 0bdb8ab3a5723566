//! The account rules: which names and passwords are accepted, and the
//! throttle that makes repeated failures wait.

use app::api::CommandError;
use std::collections::HashMap;
use std::sync::Mutex;

/// Failed sign-ins allowed for one name before each further one must wait.
pub const FREE_FAILURES: u32 = 5;
/// The same for one address (many players may share one: a school, a
/// mobile network).
pub const FREE_FAILURES_PER_ADDRESS: u32 = 20;
/// The longest wait after repeated failures.
pub const MAX_WAIT_MS: i64 = 15 * 60 * 1000;
/// Failures are forgotten after this long without one.
pub const FAILURE_MEMORY_MS: i64 = 60 * 60 * 1000;
/// Keys a throttle remembers before it forgets the idle ones.
const THROTTLE_MAX: usize = 50_000;

/// Names nobody may take (compared ignoring case).
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "ai",
    "anonymous",
    "api",
    "deleted",
    "guest",
    "mod",
    "moderator",
    "null",
    "othello",
    "root",
    "staff",
    "support",
    "system",
    "www",
];

/// Checks a name: 3–20 characters of ASCII letters, digits, `_` and `-`,
/// not reserved. ASCII only, so no two names look alike in another script.
pub fn check_name(name: &str) -> Result<(), CommandError> {
    let length = name.chars().count();
    if !(3..=20).contains(&length) {
        return Err(CommandError::refused(
            "A name has 3 to 20 characters: letters, digits, _ and -.",
        ));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(CommandError::refused(
            "A name may hold only the letters a–z and A–Z, digits, _ and -.",
        ));
    }
    if RESERVED.contains(&name.to_ascii_lowercase().as_str()) {
        return Err(CommandError::refused(
            "That name is reserved: choose another.",
        ));
    }
    Ok(())
}

/// Checks a new password: at least 10 characters and not guessable by the
/// zxcvbn estimator (score 3 of 4 or better; the name counts as guessable).
pub fn check_password(password: &str, name: &str) -> Result<(), CommandError> {
    if password.chars().count() < 10 {
        return Err(CommandError::refused(
            "A password needs at least 10 characters.",
        ));
    }
    if password.len() > 256 {
        return Err(CommandError::refused(
            "A password may have at most 256 characters.",
        ));
    }
    let estimate = zxcvbn::zxcvbn(password, &[name, "othello", "reversi"]);
    if (estimate.score() as u8) < 3 {
        return Err(CommandError::refused(
            "This password is too easy to guess: use a longer phrase of unrelated words.",
        ));
    }
    Ok(())
}

/// Failed sign-ins per key (a name or an address) and when the last was.
pub struct Throttle {
    /// Failures allowed before each further one must wait.
    free: u32,
    failures: Mutex<HashMap<String, (u32, i64)>>,
}

impl Default for Throttle {
    fn default() -> Self {
        Throttle::allowing(FREE_FAILURES)
    }
}

impl Throttle {
    /// A throttle that lets `free` failures through before waits begin.
    pub fn allowing(free: u32) -> Self {
        Throttle {
            free,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// How long `key` must still wait (ms), 0 if it may try now.
    pub fn wait(&self, key: &str, now: i64) -> i64 {
        let Ok(failures) = self.failures.lock() else {
            return 0;
        };
        match failures.get(key) {
            Some(&(count, last)) if count >= self.free => {
                let doubling = (count - self.free).min(20);
                let wait = (1000_i64 << doubling).min(MAX_WAIT_MS);
                (last + wait - now).max(0)
            }
            _ => 0,
        }
    }

    /// Records a failure of `key`.
    pub fn fail(&self, key: &str, now: i64) {
        if let Ok(mut failures) = self.failures.lock() {
            if failures.len() >= THROTTLE_MAX {
                failures.retain(|_, &mut (_, last)| now - last < FAILURE_MEMORY_MS);
            }
            let entry = failures.entry(key.to_string()).or_insert((0, now));
            if now - entry.1 >= FAILURE_MEMORY_MS {
                entry.0 = 0;
            }
            entry.0 += 1;
            entry.1 = now;
        }
    }

    /// Forgets `key`'s failures (a successful sign-in).
    pub fn clear(&self, key: &str) {
        if let Ok(mut failures) = self.failures.lock() {
            failures.remove(key);
        }
    }

    /// Counts one more event of `key` within the hour; false past `limit`.
    pub(super) fn count_within_hour(&self, key: &str, now: i64, limit: u32) -> bool {
        let Ok(mut failures) = self.failures.lock() else {
            return true;
        };
        let entry = failures.entry(key.to_string()).or_insert((0, now));
        if now - entry.1 >= FAILURE_MEMORY_MS {
            *entry = (0, now);
        }
        if entry.0 >= limit {
            return false;
        }
        entry.0 += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_rules() {
        for good in ["abc", "Nikos_7", "a-b-c", "ABCDEFGHIJKLMNOPQRST"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "ab",
            "ABCDEFGHIJKLMNOPQRSTU",
            "two words",
            "<script>",
            "Νίκος",
            "pаypal", // Cyrillic а
            "Admin",
            "SYSTEM",
            "",
        ] {
            assert_eq!(
                check_name(bad).map_err(|e| e.kind),
                Err(app::api::ErrorKind::Refused),
                "{bad}"
            );
        }
    }

    #[test]
    fn weak_passwords_are_refused_with_a_reason() {
        let short = check_password("short", "nikos").unwrap_err();
        assert!(short.message.contains("10 characters"), "{short}");
        for weak in ["password1234", "nikos12345678", "qwertyuiop", "1234567890"] {
            let error = check_password(weak, "nikos").unwrap_err();
            assert!(
                error.message.contains("too easy to guess"),
                "{weak}: {error}"
            );
        }
        assert!(check_password("violet kettle marches sideways", "nikos").is_ok());
        assert!(check_password(&"x".repeat(300), "nikos").is_err());
    }

    #[test]
    fn repeated_failures_wait_longer_and_longer() {
        let throttle = Throttle::default();
        for i in 0..FREE_FAILURES {
            assert_eq!(throttle.wait("k", 1000 + i64::from(i)), 0);
            throttle.fail("k", 1000 + i64::from(i));
        }
        let last = 1000 + i64::from(FREE_FAILURES - 1);
        assert_eq!(throttle.wait("k", last), 1000);
        assert_eq!(throttle.wait("k", last + 1000), 0);
        throttle.fail("k", last + 1000);
        assert_eq!(throttle.wait("k", last + 1000), 2000);
        assert_eq!(throttle.wait("other", last), 0);
        throttle.clear("k");
        assert_eq!(throttle.wait("k", last + 1000), 0);
        // An hour without failures starts the count again.
        for _ in 0..20 {
            throttle.fail("k", 0);
        }
        assert_eq!(throttle.wait("k", 0), MAX_WAIT_MS);
        throttle.fail("k", FAILURE_MEMORY_MS + 10);
        assert_eq!(throttle.wait("k", FAILURE_MEMORY_MS + 10), 0);
    }
}
