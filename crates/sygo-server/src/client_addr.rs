//! The client's address, for the rate limits: the socket's peer, or behind
//! a trusted proxy (`--trust-proxy`) the last address of `X-Forwarded-For`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::error::ApiError;
use crate::state::AppState;

/// The address of the client: the socket's peer, or with `--trust-proxy`
/// the last address of `X-Forwarded-For` (the one the proxy saw). In-process
/// calls without a socket are `0.0.0.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClientAddr(pub IpAddr);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if state.web.trust_proxy
            && let Some(addr) = parts
                .headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back()
        {
            return Ok(ClientAddr(addr));
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        Ok(ClientAddr(peer))
    }
}
