//! Vacation (docs/web.md, "Vacation"): a player switches it on and off
//! (`POST /api/account/vacation`; never on by itself); while it is on, the
//! clocks of the account's correspondence games stop on its turns, and it
//! ends by itself once the allowance is used up (the clocks' watcher,
//! `timeouts.rs`, calls [`end_used_up`]).
//!
//! Each change is made under the accounts' lock (`Accounts::changing`: a
//! claim of a side and a vacation's change come one after the other) and
//! the submission locks of the account's games in progress, taken in the
//! order of the games' ids, so that no turn is committed and no timeout is
//! declared while their clocks change. The database has it first, in one
//! transaction (the account on or off vacation, the vacation that ended,
//! the time credited to each running turn it covered), then memory. A
//! game's clock knows the vacation of each side as a [`Pause`]: from its
//! start to when it ends by itself at the latest, so that a turn or a
//! deadline is counted exactly even before the watcher has ended it.

use std::collections::BTreeMap;
use std::sync::Arc;

use sygo_rules::Color;

use crate::accounts::Vacation;
use crate::clock::Pause;
use crate::db::{CreditRow, SeatRow, VacationRow};
use crate::error::ApiError;
use crate::games::Entry;
use crate::state::AppState;
use crate::time::now_ms;

/// The account's games in progress whose clocks stop for a vacation, each
/// with the sides the account holds there, in the order of their ids (the
/// order their submission locks are taken in).
fn games_of(state: &AppState, account: i64) -> Vec<(Arc<Entry>, Vec<Color>)> {
    let mut by_id: BTreeMap<String, (Arc<Entry>, Vec<Color>)> = BTreeMap::new();
    for (game, color) in state.accounts.seats_of(account) {
        let Ok(entry) = state.games.get(&game) else {
            continue;
        };
        if !entry.pauses_for_vacation() || entry.with_live(|l| l.game.position().is_over()) {
            continue;
        }
        by_id
            .entry(game)
            .or_insert_with(|| (entry, Vec::new()))
            .1
            .push(color);
    }
    by_id.into_values().collect()
}

/// The pause of a side claimed at `claimed` by an account on vacation from
/// `since` to `until` at the latest: from the later of the two.
fn pause_of(since: i64, until: i64, claimed: Option<i64>) -> Pause {
    let from = claimed.map_or(since, |c| c.max(since));
    (from, until.max(from))
}

/// Switches the account's vacation on or off; the vacation as it then
/// stands. Switching on when on, or off when off, changes nothing. 409
/// `no_vacation_left` when switched on with nothing left of the allowance.
pub(crate) async fn switch(state: &AppState, account: i64, on: bool) -> Result<Vacation, ApiError> {
    let _changing = state.accounts.changing.lock().await;
    let now = now_ms();
    let v = state
        .accounts
        .vacation(account, now)
        .ok_or_else(|| ApiError::Unauthorized("not signed in".to_string()))?;
    match (on, v.since) {
        (true, None) => begin(state, account).await?,
        (false, Some(_)) => end(state, account, None).await?,
        // As asked already.
        (true, Some(_)) | (false, None) => return Ok(v),
    }
    state
        .accounts
        .vacation(account, now_ms())
        .ok_or_else(|| ApiError::Internal("an account went away".to_string()))
}

/// Begins the account's vacation now. Called with the accounts' lock held.
async fn begin(state: &AppState, account: i64) -> Result<(), ApiError> {
    let games = games_of(state, account);
    let mut held = Vec::with_capacity(games.len());
    for (entry, _) in &games {
        held.push(entry.hold_submissions().await);
    }
    let since = now_ms();
    let v = state
        .accounts
        .vacation(account, since)
        .ok_or_else(|| ApiError::Internal("an account went away".to_string()))?;
    if v.left_ms <= 0 {
        return Err(ApiError::NoVacationLeft(format!(
            "no vacation left: you have taken all {} days of the last {}",
            crate::accounts::VACATION_ALLOWANCE_MS / crate::clock::DAY_MS,
            crate::accounts::VACATION_WINDOW_MS / crate::clock::DAY_MS
        )));
    }
    let until = since + v.left_ms;
    state
        .db
        .vacation_on(account, since)
        .await
        .map_err(|e| ApiError::Internal(format!("storing a vacation: {e:?}")))?;
    state.accounts.vacation_on(account, since);
    for (entry, colors) in &games {
        for &color in colors {
            let claimed = state.accounts.seat_claimed(&entry.meta.id, color);
            entry.vacation_begins(color, pause_of(since, until, claimed));
        }
    }
    drop(held);
    Ok(())
}

/// Ends the account's vacation at `at` (now if `None`): the vacation kept,
/// the time it covered of each running turn of the account's credited to
/// that turn, together; then the clocks run again. Called with the
/// accounts' lock held.
async fn end(state: &AppState, account: i64, at: Option<i64>) -> Result<(), ApiError> {
    let games = games_of(state, account);
    let mut held = Vec::with_capacity(games.len());
    for (entry, _) in &games {
        held.push(entry.hold_submissions().await);
    }
    let now = now_ms();
    let Some(Vacation {
        since: Some(since),
        until: Some(until),
        ..
    }) = state.accounts.vacation(account, now)
    else {
        return Ok(());
    };
    // Never past the moment the allowance ran out.
    let ended = at.unwrap_or(now).clamp(since, until.max(since));
    let mut credits = Vec::new();
    let mut rows = Vec::new();
    for (entry, colors) in &games {
        for &color in colors {
            let credit = entry.vacation_credit(color, ended);
            if let Some((turn, credit_ms)) = credit {
                rows.push(CreditRow {
                    game_id: entry.meta.id.clone(),
                    turn: u32::try_from(turn).unwrap_or(u32::MAX),
                    credit_ms,
                });
            }
            credits.push((entry, color, credit.map(|(_, ms)| ms)));
        }
    }
    let vacation = VacationRow {
        account_id: account,
        started: since,
        ended,
    };
    state
        .db
        .vacation_off(vacation, rows)
        .await
        .map_err(|e| ApiError::Internal(format!("storing a vacation's end: {e:?}")))?;
    state.accounts.vacation_off(vacation);
    for (entry, color, credit) in credits {
        entry.vacation_ends(color, credit);
    }
    drop(held);
    Ok(())
}

/// Ends, at the moment the allowance ran out, every vacation whose
/// allowance is used up at `now` (the clocks' watcher); when the next one
/// ends by itself, if any is on.
pub(crate) async fn end_used_up(state: &AppState, now: i64) -> Option<i64> {
    let mut next: Option<i64> = None;
    for (account, _, until) in state.accounts.on_vacation() {
        if until > now {
            next = Some(next.map_or(until, |n| n.min(until)));
            continue;
        }
        let _changing = state.accounts.changing.lock().await;
        // Still on the same vacation (not switched off meanwhile)?
        let same = state
            .accounts
            .vacation(account, now)
            .is_some_and(|v| v.until == Some(until));
        if !same {
            continue;
        }
        if let Err(e) = end(state, account, Some(until)).await {
            tracing::error!(account, error = %e, "a vacation could not be ended");
        }
    }
    next
}

/// Seats just claimed (committed and added to the accounts): the clocks of
/// those whose account is on vacation stop from the claim.
pub(crate) async fn seats_added(state: &AppState, seats: &[SeatRow]) {
    let _changing = state.accounts.changing.lock().await;
    seats_added_locked(state, seats).await;
}

/// [`seats_added`], the accounts' lock held by the caller.
pub(crate) async fn seats_added_locked(state: &AppState, seats: &[SeatRow]) {
    let now = now_ms();
    for seat in seats {
        let color = match seat.color.as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            _ => continue,
        };
        if state.accounts.seat_holder(&seat.game_id, color) != Some(seat.account_id) {
            continue;
        }
        let Some(Vacation {
            since: Some(since),
            until: Some(until),
            ..
        }) = state.accounts.vacation(seat.account_id, now)
        else {
            continue;
        };
        let Ok(entry) = state.games.get(&seat.game_id) else {
            continue;
        };
        if !entry.pauses_for_vacation() {
            continue;
        }
        let claimed = state.accounts.seat_claimed(&seat.game_id, color);
        let _submit = entry.hold_submissions().await;
        entry.vacation_begins(color, pause_of(since, until, claimed));
    }
}

/// At start, before anything runs: the games of the accounts on vacation
/// get their pauses as stored.
pub(crate) fn load(state: &AppState) {
    for (account, since, until) in state.accounts.on_vacation() {
        for (game, color) in state.accounts.seats_of(account) {
            if let Ok(entry) = state.games.get(&game) {
                let claimed = state.accounts.seat_claimed(&game, color);
                entry.vacation_as_stored(color, pause_of(since, until, claimed));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_claimed_during_a_vacation_stops_from_its_claim() {
        assert_eq!(pause_of(100, 500, None), (100, 500));
        assert_eq!(pause_of(100, 500, Some(50)), (100, 500));
        assert_eq!(pause_of(100, 500, Some(300)), (300, 500));
        assert_eq!(pause_of(100, 500, Some(900)), (900, 900), "nothing left");
    }
}
