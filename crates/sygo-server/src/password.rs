//! Passwords: the rules a new one follows, and their Argon2id hashes (the
//! `argon2` crate with its recommended parameters: 19 MiB of memory, two
//! passes, one lane), made and checked on the blocking threads so that a
//! sign-in never holds up a turn — at most one per core but one at a time
//! (a flood of sign-ins waits its turn instead of taking 19 MiB a thread on
//! hundreds of threads, and the turns keep a core). The crate compares in constant time; a password is
//! never logged (no type here is `Debug`).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use std::sync::OnceLock;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Hashes made or checked at once: one per core.
fn hashing() -> &'static Semaphore {
    static HASHING: OnceLock<Semaphore> = OnceLock::new();
    HASHING
        .get_or_init(|| Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get())))
}

/// Runs a hash on a blocking thread, once a core is free for it.
async fn on_a_core<T: Send + 'static>(
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let _core = hashing()
        .acquire()
        .await
        .map_err(|e| ApiError::Internal(format!("{what}: {e}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(format!("{what}: {e}")))
}

/// The fewest and most characters of a password.
pub(crate) const LENGTHS: std::ops::RangeInclusive<usize> = 8..=128;

/// Checks a new password: 8 to 128 characters, no control character, not
/// only spaces, not the account's name.
pub(crate) fn check(password: &str, name: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if !LENGTHS.contains(&n) {
        return Err(ApiError::BadRequest(format!(
            "a password has {} to {} characters (this one has {n})",
            LENGTHS.start(),
            LENGTHS.end()
        )));
    }
    if password.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "a password cannot hold control characters (such as NUL or a line break)".to_string(),
        ));
    }
    if password.chars().all(char::is_whitespace) {
        return Err(ApiError::BadRequest(
            "a password cannot be only spaces".to_string(),
        ));
    }
    if password.eq_ignore_ascii_case(name) {
        return Err(ApiError::BadRequest(
            "the password cannot be the name".to_string(),
        ));
    }
    Ok(())
}

/// The Argon2id hash of a password, as a PHC string, with a fresh salt.
pub(crate) async fn hash(password: String) -> Result<String, ApiError> {
    let salt = crate::secret::random_bytes::<16>()?;
    on_a_core("hashing a password", move || {
        let salt = SaltString::encode_b64(&salt)
            .map_err(|e| ApiError::Internal(format!("a password's salt: {e}")))?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| ApiError::Internal(format!("hashing a password: {e}")))
    })
    .await?
}

/// Whether `password` is the one whose hash is `stored` (false for a hash
/// that does not read).
pub(crate) async fn verify(password: String, stored: String) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&stored).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
    })
    .await
    .map_err(|e| ApiError::Internal(format!("checking a password: {e}")))
}

/// Takes as long as [`verify`] and says no: the answer to a sign-in with a
/// name that has no account, so that its time does not tell which names
/// exist.
pub(crate) async fn verify_nothing(password: String) -> Result<bool, ApiError> {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = match DUMMY.get() {
        Some(d) => d.clone(),
        None => {
            let d = hash("not the password of anyone".to_string()).await?;
            DUMMY.get_or_init(|| d).clone()
        }
    };
    verify(password, dummy).await.map(|_| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_check_the_password_they_were_made_of() {
        let h = hash("correct horse".to_string()).await.unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(!h.contains("correct horse"));
        assert!(
            verify("correct horse".to_string(), h.clone())
                .await
                .unwrap()
        );
        assert!(
            !verify("correct horsf".to_string(), h.clone())
                .await
                .unwrap()
        );
        let again = hash("correct horse".to_string()).await.unwrap();
        assert_ne!(h, again, "a fresh salt each time");
        assert!(
            !verify("x".to_string(), "not a hash".to_string())
                .await
                .unwrap()
        );
        assert!(!verify_nothing("correct horse".to_string()).await.unwrap());
    }

    #[test]
    fn password_rules() {
        assert!(check("12345678", "ann").is_ok());
        assert!(check("1234567", "ann").is_err());
        assert!(check(&"x".repeat(129), "ann").is_err());
        assert!(check(&"é".repeat(128), "ann").is_ok());
        assert!(check("Annabelle", "annabelle").is_err());
    }
}
