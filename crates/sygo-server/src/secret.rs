//! Game ids and the secret tokens of the sides, from the system's random
//! source, and their comparison in constant time.

use rand::TryRng;
use rand::rngs::SysRng;

use crate::error::ApiError;

/// `N` random bytes.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut bytes = [0u8; N];
    SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("the system's random source failed: {e}")))?;
    Ok(bytes)
}

/// `n` random bytes as lowercase hexadecimal.
fn random_hex(n: usize) -> Result<String, ApiError> {
    let mut bytes = vec![0u8; n];
    SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("the system's random source failed: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A new game id: eight hexadecimal digits (the caller checks that it is
/// free).
pub(crate) fn new_id() -> Result<String, ApiError> {
    random_hex(4)
}

/// A new secret token: 128 random bits as 32 hexadecimal digits.
pub(crate) fn new_token() -> Result<String, ApiError> {
    random_hex(16)
}

/// SHA-256 of a secret, as 64 lowercase hexadecimal digits: what is stored
/// of a session's secret.
pub(crate) fn digest(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A random seed for the AI.
pub(crate) fn seed() -> u64 {
    let mut bytes = [0u8; 8];
    if SysRng.try_fill_bytes(&mut bytes).is_err() {
        // The seed only varies the AI's play: the clock will do.
        return crate::time::now_ms() as u64;
    }
    u64::from_le_bytes(bytes)
}

/// Whether a token presented equals the secret, in time that does not depend
/// on where they differ.
pub(crate) fn tokens_match(presented: &str, secret: &str) -> bool {
    let (a, b) = (presented.as_bytes(), secret.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether text looks like a game id (so that nothing else is looked up).
pub(crate) fn is_id(text: &str) -> bool {
    text.len() == 8 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_hex_and_differ() {
        let a = new_id().unwrap();
        assert!(is_id(&a));
        let (t, u) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(t.len(), 32);
        assert_ne!(t, u);
        assert!(tokens_match(&t, &t.clone()));
        assert!(!tokens_match(&t, &u));
        assert!(!tokens_match("", &t));
        assert!(!is_id("ABCDEF12") && !is_id("abc") && !is_id("../../../"));
    }
}
