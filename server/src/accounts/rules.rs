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

/// Names nobody may take, compared after [`fold`]ing: a name whose folded
/// form, less trailing digits and separators, is one of these is refused
/// (`admin_5976`, `Support-122`, `m0derator341`), and so is any name whose
/// folded form contains one of the words of five letters or more.
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
        return Err(CommandError::refused(app::msg!("srv-name-length")));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(CommandError::refused(app::msg!("srv-name-chars")));
    }
    if is_reserved(name) {
        return Err(CommandError::refused(app::msg!("srv-name-reserved")));
    }
    Ok(())
}

/// A name as every name check compares it — reserved names, live names
/// (the store's unique `accounts.name_fold`) and deleted names (tombstones):
/// lower case; `I`, `i`, `1` and `|` read as `l` and `0` as `o` (they look
/// alike in many fonts), and the other digits that look like letters as
/// those letters (3 e, 4 a, 5 s, 7 t, 8 b); separators (`_`, `-`, `.`)
/// dropped. `migrations/0028_name_fold.sql` spells the same fold in SQL.
pub fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-' | '.'))
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' | '|' => 'l',
            '3' => 'e',
            '4' => 'a',
            '5' => 's',
            '7' => 't',
            '8' => 'b',
            other => other,
        })
        .collect()
}

/// Whether a name is reserved (see [`RESERVED`]), both compared [`fold`]ed.
pub fn is_reserved(name: &str) -> bool {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_' || c == '-');
    let stem = fold(stem);
    let folded = fold(name);
    RESERVED.iter().any(|word| {
        let word = fold(word);
        stem == word || (word.len() >= 5 && folded.contains(&word))
    })
}

/// The hash a deleted account's tombstone keeps of its name: SHA-256 of the
/// folded name, so the name (and its look-alikes) stays reserved.
pub fn tombstone_hash(name: &str) -> String {
    sha256_hex(&fold(name))
}

fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    crate::hex::hex(&sha2::Sha256::digest(text.as_bytes()))
}

/// The `l`s of a folded name whose spellings tombstones written before the
/// fold read `i` as `l` are tried (2 to this power hashes at most).
const LEGACY_L_POSITIONS: usize = 10;

/// Every tombstone hash that reserves `name`: [`tombstone_hash`], and the
/// hashes tombstones written before the fold read `i` as `l` kept (their
/// fold left `i` as it was, and names never held `|` or `.`): the folded
/// name with any of its `l`s read back as `i`.
pub fn tombstone_hashes(name: &str) -> Vec<String> {
    let folded = fold(name);
    let ls: Vec<usize> = folded
        .char_indices()
        .filter(|(_, c)| *c == 'l')
        .map(|(i, _)| i)
        .collect();
    let tried = &ls[..ls.len().min(LEGACY_L_POSITIONS)];
    let mut hashes = Vec::with_capacity(1 << tried.len());
    for mask in 0..(1_u32 << tried.len()) {
        let mut spelled = folded.clone().into_bytes();
        for (bit, at) in tried.iter().enumerate() {
            if mask & (1 << bit) != 0 {
                spelled[*at] = b'i';
            }
        }
        hashes.push(sha256_hex(&String::from_utf8_lossy(&spelled)));
    }
    if ls.len() > tried.len() {
        hashes.push(sha256_hex(&folded.replace('l', "i")));
    }
    hashes
}

/// The longest password whose strength is estimated; longer ones are
/// refused before any work (zxcvbn's cost grows fast with the length).
pub const MAX_PASSWORD_BYTES: usize = 128;

/// Words of the site a guesser tries first: they count as guessable.
const SITE_WORDS: &[&str] = &[
    "othello",
    "reversi",
    "othello3d",
    "othello 3d",
    "othello-3d",
    "othello_3d",
    "site-based",
    "sitebased",
    "disc",
    "discs",
    "board",
    "password",
];

/// Whether `password` is nothing but the site's own words (and the name)
/// with digits, punctuation or spaces around them — "othello2024reversi",
/// "2024othello", "Reversi!!2024": zxcvbn rates a year between two known
/// words as hard, a guesser tries it early.
fn only_site_words(password: &str, name: &str) -> bool {
    let mut rest = password.to_lowercase();
    let name = name.to_lowercase();
    let mut words: Vec<&str> = SITE_WORDS.to_vec();
    words.push(&name);
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    let mut found = false;
    for word in words.into_iter().filter(|w| w.len() >= 3) {
        if rest.contains(word) {
            found = true;
            rest = rest.replace(word, " ");
        }
    }
    found && !rest.chars().any(char::is_alphabetic)
}

/// Checks a new password: at least 10 characters, not the site's own words
/// with digits around them, and not guessable by the zxcvbn estimator
/// (score 3 of 4 or better; the name and the site's own words count as
/// guessable). CPU-bound (up to a second for a long one):
/// call it off the async runtime, as [`super::Accounts`] does.
pub fn check_password(password: &str, name: &str) -> Result<(), CommandError> {
    if password.chars().count() < 10 {
        return Err(CommandError::refused(app::msg!("srv-password-short")));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(CommandError::refused(app::msg!("srv-password-long")));
    }
    if only_site_words(password, name) {
        return Err(CommandError::refused(app::msg!("srv-password-weak")));
    }
    let mut guessable = vec![name];
    guessable.extend_from_slice(SITE_WORDS);
    let estimate = zxcvbn::zxcvbn(password, &guessable);
    if (estimate.score() as u8) < 3 {
        return Err(CommandError::refused(app::msg!("srv-password-weak")));
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

    /// Counts an attempt of `key` *before* its work is done, atomically:
    /// every attempt counts as a failure until [`Throttle::clear`] says it
    /// succeeded, so a burst of simultaneous attempts gets the free ones
    /// and then waits, however many arrive at once. Err: the wait (ms).
    pub fn attempt(&self, key: &str, now: i64) -> Result<(), i64> {
        let Ok(mut failures) = self.failures.lock() else {
            return Ok(());
        };
        if failures.len() >= THROTTLE_MAX {
            failures.retain(|_, &mut (_, last)| now - last < FAILURE_MEMORY_MS);
        }
        let entry = failures.entry(key.to_string()).or_insert((0, now));
        if now - entry.1 >= FAILURE_MEMORY_MS {
            *entry = (0, now);
        }
        let (count, last) = *entry;
        if count >= self.free {
            let doubling = (count - self.free).min(20);
            let wait = (1000_i64 << doubling).min(MAX_WAIT_MS);
            let left = last + wait - now;
            if left > 0 {
                return Err(left);
            }
        }
        entry.0 += 1;
        entry.1 = now;
        Ok(())
    }

    /// Takes back one attempt of `key` that succeeded (for a count that a
    /// success does not clear: an address shared by many players).
    pub fn succeeded(&self, key: &str) {
        if let Ok(mut failures) = self.failures.lock() {
            if let Some(entry) = failures.get_mut(key) {
                entry.0 = entry.0.saturating_sub(1);
            }
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
            "admin_5976",
            "Support-122",
            "m0derator341",
            "0thell0_fan",
            "adm1n",
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
        for site in ["site-based", "sitebased123"] {
            assert!(check_password(site, "nikos").is_err(), "{site}");
        }
        // The site's words with digits around them.
        for site in [
            "othello2024reversi",
            "2024othello",
            "Reversi!!2024",
            "othello3d 1999",
            "2024-nikos-othello",
        ] {
            let error = check_password(site, "nikos").unwrap_err();
            assert!(error.message.contains("too easy to guess"), "{site}");
        }
        assert!(check_password("othello violet kettle marches", "nikos").is_ok());
    }

    #[test]
    fn one_fold_reads_look_alikes_as_one_name() {
        for (a, b) in [
            ("alice", "aIice"),
            ("alice", "a1ice"),
            ("alice", "A|ice"),
            ("bob", "b0b"),
            ("bob_smith", "bob.smith"),
            ("bob-smith", "BOBSMITH"),
        ] {
            assert_eq!(fold(a), fold(b), "{a} {b}");
            assert_eq!(tombstone_hash(a), tombstone_hash(b), "{a} {b}");
        }
        assert_ne!(fold("alice"), fold("alicia"));
        // Reserved names fold the same way.
        for reserved in ["admIn", "adm|n", "Moderat0r", "I0I_othe11o"] {
            assert!(is_reserved(reserved), "{reserved}");
        }
    }

    #[test]
    fn tombstones_written_before_the_fold_read_i_as_l_still_reserve_the_name() {
        // Before: lower case, 1 as l, but i left as i.
        let legacy = |name: &str| sha256_hex(&name.to_lowercase().replace('1', "l"));
        for (deleted, candidate) in [("alice", "aIice"), ("alice", "aLIce"), ("lily", "Iiiy")] {
            assert!(
                tombstone_hashes(candidate).contains(&legacy(deleted)),
                "{deleted} {candidate}"
            );
        }
        assert!(!tombstone_hashes("bob").contains(&legacy("alice")));
        assert_eq!(tombstone_hashes("bob"), vec![tombstone_hash("bob")]);
        assert!(tombstone_hashes(&"l".repeat(20)).len() <= (1 << LEGACY_L_POSITIONS) + 1);
    }

    #[test]
    fn attempts_are_counted_before_the_work_so_a_burst_gets_only_the_free_ones() {
        let throttle = Throttle::default();
        let allowed = (0..30)
            .filter(|_| throttle.attempt("k", 1000).is_ok())
            .count();
        assert_eq!(allowed, FREE_FAILURES as usize);
        assert_eq!(throttle.attempt("k", 1000), Err(1000));
        // A success forgets them.
        throttle.clear("k");
        assert!(throttle.attempt("k", 1000).is_ok());
        // A shared address: successes are taken back one by one, so many
        // players signing in from one school never wait.
        let address = Throttle::allowing(FREE_FAILURES_PER_ADDRESS);
        for i in 0..100 {
            assert!(address.attempt("ip", i).is_ok(), "sign-in {i}");
            address.succeeded("ip");
        }
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
