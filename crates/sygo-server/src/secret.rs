//! Game ids and the secret tokens of the sides, from the system's random
//! source, their digests (what is stored of a token, a session's secret, a
//! request id), the tokens derived from a secret the client holds (a
//! session's, a request id), and comparison in constant time.
//!
//! A side's token is one of three, all 32 hexadecimal digits:
//! - a random one, made when the game starts and given once (with its
//!   links) to whoever started it; the server keeps its digest alone;
//! - one derived from the request id of the creation ([`request_token`]), so
//!   that the same request sent again gets the same tokens back while only
//!   the id's digest is kept;
//! - one derived from a session's secret ([`seat_token`]), for a side that
//!   the session's account holds: it is what the account's pages get, and
//!   it holds only with that session's cookie.

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
/// of a session's secret, a side's token and a request id.
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

/// 32 hexadecimal digits of the HMAC-SHA-256 of `message` under `key`.
fn derived(key: &str, message: &str) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    // HMAC takes a key of any length.
    let Ok(mut mac) = Hmac::<sha2::Sha256>::new_from_slice(key.as_bytes()) else {
        return String::new();
    };
    mac.update(message.as_bytes());
    mac.finalize().into_bytes()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The token of the side `color` of game `game` for the session whose
/// secret (the cookie's value) this is: what an account's pages get for a
/// side it holds. No one without the session's secret can make it.
pub(crate) fn seat_token(session_secret: &str, game: &str, color: &str) -> String {
    derived(session_secret, &format!("seat {game} {color}"))
}

/// The token of the side `color` of the game that the request with this
/// id (`POST /api/games`, `request_id`) starts: sent again, the request
/// gets the same token, which no one without the id can make.
pub(crate) fn request_token(request_id: &str, color: &str) -> String {
    derived(request_id, &format!("side {color}"))
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
    fn derived_tokens_are_tokens_and_depend_on_every_part() {
        let t = seat_token("secret", "ab12cd34", "black");
        assert!(
            t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit()),
            "{t}"
        );
        assert_eq!(t, seat_token("secret", "ab12cd34", "black"));
        for other in [
            seat_token("secret2", "ab12cd34", "black"),
            seat_token("secret", "ab12cd35", "black"),
            seat_token("secret", "ab12cd34", "white"),
            request_token("secret", "black"),
        ] {
            assert_ne!(t, other);
        }
        assert_eq!(digest("abc").len(), 64);
    }

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
