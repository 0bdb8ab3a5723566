//! Password hashing and strength checks, off the async runtime: Argon2id on
//! at most [`super::HASHING_AT_ONCE`] blocking threads with a bounded queue
//! ([`super::HASHING_QUEUE`]); zxcvbn behind the same permit.

use super::{check_password, Accounts, HASHING_QUEUE};
use app::api::CommandError;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::atomic::Ordering;

impl Accounts {
    /// A new password's strength, estimated on a blocking thread behind the
    /// hashing permit (zxcvbn takes up to a second for a long password).
    pub(super) async fn check_strength(
        &self,
        password: &str,
        name: &str,
    ) -> Result<(), CommandError> {
        let _permit = self.permit().await?;
        let (password, name) = (password.to_string(), name.to_string());
        tokio::task::spawn_blocking(move || check_password(&password, &name))
            .await
            .map_err(CommandError::internal)?
    }

    /// A permit to hash, or "busy" when too many already wait.
    pub(super) async fn permit(&self) -> Result<tokio::sync::SemaphorePermit<'_>, CommandError> {
        if self.inner.waiting.fetch_add(1, Ordering::SeqCst) >= HASHING_QUEUE {
            self.inner.waiting.fetch_sub(1, Ordering::SeqCst);
            // A flood past the queue: a limit, answered at once.
            return Err(CommandError::limited(app::msg!("srv-hashing-busy")));
        }
        let permit = self.inner.hashing.acquire().await;
        self.inner.waiting.fetch_sub(1, Ordering::SeqCst);
        permit.map_err(|_| CommandError::unavailable(app::msg!("srv-shutting-down")))
    }

    pub(super) async fn hash(&self, password: &str) -> Result<String, CommandError> {
        let _permit = self.permit().await?;
        let params = self.inner.params.clone();
        let password = password.to_string();
        tokio::task::spawn_blocking(move || hash_with(&params, &password))
            .await
            .map_err(CommandError::internal)?
            .map_err(CommandError::internal)
    }

    pub(super) async fn verify(&self, password: &str, phc: String) -> Result<bool, CommandError> {
        let _permit = self.permit().await?;
        let params = self.inner.params.clone();
        let password = password.to_string();
        tokio::task::spawn_blocking(move || {
            PasswordHash::new(&phc).is_ok_and(|hash| {
                argon(&params)
                    .verify_password(password.as_bytes(), &hash)
                    .is_ok()
            })
        })
        .await
        .map_err(CommandError::internal)
    }
}

fn argon(params: &Params) -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone())
}

pub(super) fn hash_with(params: &Params, password: &str) -> Result<String, String> {
    let salt_bytes: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&salt_bytes).map_err(|e| e.to_string())?;
    argon(params)
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let params = Params::new(1024, 1, 1, None).expect("params");
        let phc = hash_with(&params, "violet kettle marches").expect("hash");
        assert!(phc.starts_with("$argon2id$v=19$m=1024,t=1,p=1$"), "{phc}");
        let hash = PasswordHash::new(&phc).expect("phc");
        assert!(argon(&params)
            .verify_password(b"violet kettle marches", &hash)
            .is_ok());
        assert!(argon(&params)
            .verify_password(b"violet kettle", &hash)
            .is_err());
    }
}
