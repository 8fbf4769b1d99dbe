//! Priors: what a new node believes of each step before any simulation, from
//! cheap features of the point (see [`super::features`]).
//!
//! A prior is a number of virtual visits at a value (for the mover). Every
//! step starts from an even belief (½, [`PriorSettings::even`] visits); the
//! features below move it:
//!
//! | feature | belief |
//! | --- | --- |
//! | fills the mover's own eye (every neighbour the mover's) | very bad |
//! | captures (reverses) a group: the stone is its last liberty | very good, more for more stones |
//! | saves a group of the mover in atari (leaves it two liberties or more) | good |
//! | self-atari: the stone's group keeps one liberty, capturing nothing | bad |
//! | puts an opponent group in atari while keeping two liberties | better |
//! | a growth that leaves its group three liberties or more ("keeps options") | a little better |
//! | a placement on the edge, or next to the edge | worse |
//! | a placement in contact with the opponent that has two liberties or fewer | worse |
//! | a stone of a turn that reverses an opponent group in danger (the rules library's exact one-turn reading: several groups growing together, a balance turn) | very good, more for more stones |
//! | a growth that leaves its group without a liberty until a later stone of the turn captures (offered only when the turn can be completed) | very good, as a stone of a capturing turn, more for more stones |
//! | a growth onto a liberty of a group whose liberties can all be filled this turn, each by another of our groups (without the reading) | good, more for more stones |
//! | a growth of our group in danger that leaves it three liberties or more | good, more for more stones |
//! | a growth of a group that could capture elsewhere, capturing nothing (a group grows once a turn) | bad |
//! | a growth next to the point of the placement that ends a capturing balance turn (the placement would touch a stone of the turn: illegal) | bad |
//!
//! `Finish` is believed bad while some growth step is believed at least even
//! (a growth stone is a point, and the turn may grow every group), and good
//! otherwise; `Pass` is believed very bad while any step is believed nearly
//! even, and even otherwise (the end of the game).

use sygo_rules::StepKind;

use super::features::{Features, StepFacts};
use super::patterns::{Weights, for_each_step_facts};
use crate::search::Prior;
use crate::steps::{Step, StepGame};

/// The weights of the priors (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorSettings {
    /// Virtual visits of the even belief every step starts from.
    pub even: f32,
    /// Virtual visits of a strong feature (capture, save, eye, self-atari).
    pub strong: f32,
    /// Read the groups in danger exactly (the rules library's one-turn
    /// capture reading) instead of matching liberties to groups.
    pub reading: bool,
    /// With `reading`, read Black's balance turn as a turn of growths and
    /// then a placement: the placement is believed good only once the
    /// growths before it are played, and a growth next to it (which makes
    /// it illegal) is believed bad. Without it, every stone of the capture
    /// is believed good from the start.
    pub balance: bool,
    /// Believe the learned step weights ([`super::Weights::builtin`]) too,
    /// or only them (`None`: the hand-written beliefs alone).
    pub learned: Option<Learned>,
    /// Read the defences of our groups in danger of at least this many
    /// stones at the start of a turn (the defence reading,
    /// [`super::DefenceReader`]), and believe the stones of their safe turns
    /// good; 0: off.
    pub defence: u32,
    /// The positions the defence reading may read per group.
    pub defence_budget: u64,
}

/// How the priors use the learned step weights: a step whose strength is r
/// times its node's average is believed at r^t / (1 + r^t) (½ for the
/// average step), with `weight` virtual visits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Learned {
    /// Virtual visits of the learned belief.
    pub weight: f32,
    /// The exponent t: 1 takes the model's odds as they are, less flattens
    /// them.
    pub temperature: f32,
    /// Which hand-written beliefs stay beside the learned one.
    pub keep: Keep,
}

/// The hand-written beliefs kept beside the learned ones (their virtual
/// visits added).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// None: the learned beliefs alone (`learned=only`).
    Nothing,
    /// The strong ones (captures, rescues, self-ataris, eyes, groups in
    /// danger: the tactics, `learned=on`).
    Tactics,
    /// All of them (`learned=mix`).
    Everything,
}

impl Default for Learned {
    fn default() -> Learned {
        Learned {
            weight: 10.0,
            temperature: 1.0,
            keep: Keep::Tactics,
        }
    }
}

impl Default for PriorSettings {
    fn default() -> PriorSettings {
        PriorSettings {
            even: 10.0,
            strong: 40.0,
            reading: true,
            balance: true,
            learned: Some(Learned::default()),
            defence: 0,
            defence_budget: 400,
        }
    }
}

/// The prior of a stone with these facts, as a (value, weight) pair.
pub(crate) fn stone_prior(
    settings: &PriorSettings,
    facts: &StepFacts,
    kind: StepKind,
    line: u8,
    distance: u8,
) -> Prior {
    let (even, strong) = (settings.even, settings.strong);
    if facts.own_eye && facts.captures == 0 {
        return Prior {
            value: 0.02,
            weight: strong,
        };
    }
    if facts.captures > 0 {
        let size = facts.captures.min(10) as f32;
        return Prior {
            value: 0.8 + 0.015 * size,
            weight: strong,
        };
    }
    if facts.transient {
        // No liberty of its own until a later stone of the turn captures:
        // a stone of a capturing turn, not a self-atari.
        return Prior {
            value: 0.78 + 0.01 * facts.captures_with.min(10) as f32,
            weight: strong,
        };
    }
    if facts.libs_after <= 1 {
        return Prior {
            value: 0.1,
            weight: strong,
        };
    }
    if facts.captures_with > 0 {
        return Prior {
            value: 0.78 + 0.01 * facts.captures_with.min(10) as f32,
            weight: strong,
        };
    }
    if facts.closes_in > 0 && kind == StepKind::Growth {
        return Prior {
            value: 0.75 + 0.01 * facts.closes_in.min(10) as f32,
            weight: strong,
        };
    }
    if (facts.spends_capturer || facts.spoils > 0) && kind == StepKind::Growth {
        return Prior {
            value: 0.15,
            weight: strong,
        };
    }
    let mut value = 0.5;
    let mut weight = even;
    if facts.defends > 0 {
        value = 0.74 + 0.01 * facts.defends.min(10) as f32;
        weight = strong;
    } else if facts.rescues > 0 {
        value = 0.75 + 0.01 * facts.rescues.min(10) as f32;
        weight = strong;
    } else if facts.saves > 0 && kind == StepKind::Growth && facts.libs_after >= 3 {
        value = 0.7 + 0.01 * facts.saves.min(10) as f32;
        weight = strong;
    }
    if facts.threatens > 0 {
        value += 0.08;
        weight += even;
    }
    match kind {
        StepKind::Growth => {
            if facts.libs_after >= 3 {
                value += 0.03;
            }
        }
        StepKind::Placement => {
            match line {
                1 => value -= 0.1,
                2 => value -= 0.03,
                _ => {}
            }
            if facts.contact && facts.libs_after <= 2 {
                value -= 0.05;
            }
            if distance >= 3 {
                value += 0.01;
            }
        }
    }
    Prior {
        value: value.clamp(0.02, 0.98),
        weight,
    }
}

/// Every step of a node with its prior: the stones, then `Finish` or `Pass`.
pub(crate) fn priors(
    settings: &PriorSettings,
    game: &StepGame,
    f: &mut Features,
    out: &mut Vec<(Step, Prior)>,
) {
    let pos = game.position();
    f.read_dangers = settings.reading;
    f.read_balance = settings.balance;
    f.read_defences = settings.defence;
    f.defence_budget = settings.defence_budget;
    f.compute(pos);
    let mut best_growth = 0.0f32;
    let mut best_stone = 0.0f32;
    let first = out.len();
    let weights = settings
        .learned
        .map(|_| Weights::builtin(pos.geometry().variant()));
    let mut strengths = std::mem::take(&mut f.strengths);
    strengths.clear();
    for_each_step_facts(game, f, weights.is_some(), |step, stone, values| {
        let prior = match (step, stone) {
            (Step::Stone(p), Some((kind, facts))) => {
                let prior = stone_prior(settings, &facts, kind, f.line(p), f.distance(p));
                if kind == StepKind::Growth {
                    best_growth = best_growth.max(prior.value);
                }
                best_stone = best_stone.max(prior.value);
                prior
            }
            (Step::Finish, _) => Prior {
                value: if best_growth >= 0.5 { 0.3 } else { 0.6 },
                weight: 2.0 * settings.even,
            },
            (Step::Pass, _) => {
                if best_stone >= 0.45 {
                    Prior {
                        value: 0.05,
                        weight: settings.strong,
                    }
                } else {
                    Prior {
                        value: 0.5,
                        weight: settings.even,
                    }
                }
            }
            _ => Prior::NONE,
        };
        if let Some(weights) = weights {
            strengths.push(weights.strength(values));
        }
        out.push((step, prior));
    });
    if let Some(learned) = settings.learned
        && strengths.len() == out.len() - first
    {
        let n = strengths.len() as f32;
        let total: f32 = strengths.iter().sum();
        for (entry, &s) in out[first..].iter_mut().zip(&strengths) {
            let odds = (s * n / total).powf(learned.temperature);
            let value = odds / (1.0 + odds);
            let prior = &mut entry.1;
            let keep = match learned.keep {
                Keep::Nothing => false,
                Keep::Tactics => prior.weight >= settings.strong,
                Keep::Everything => prior.weight > 0.0,
            };
            *prior = if keep {
                let weight = prior.weight + learned.weight;
                Prior {
                    value: (prior.value * prior.weight + value * learned.weight) / weight,
                    weight,
                }
            } else {
                Prior {
                    value,
                    weight: learned.weight,
                }
            };
        }
    }
    f.strengths = strengths;
}

#[cfg(test)]
mod tests {
    use super::*;
    use sygo_rules::Position;

    /// The hand-written belief in a stone (the learned weights, mixed in
    /// by default, are tested in `patterns.rs` and by play).
    fn prior_of(pos: &Position, at: &str) -> Prior {
        prior_with(
            pos,
            at,
            &PriorSettings {
                learned: None,
                ..PriorSettings::default()
            },
        )
    }

    fn prior_with(pos: &Position, at: &str, settings: &PriorSettings) -> Prior {
        let p = pos.geometry().parse_point(at).unwrap();
        let mut f = Features::default();
        let mut out = Vec::new();
        priors(settings, &StepGame::new(pos.clone()), &mut f, &mut out);
        out.iter()
            .find(|(s, _)| *s == Step::Stone(p))
            .map(|&(_, prior)| prior)
            .unwrap_or_else(|| panic!("{at} is not a step"))
    }

    /// Black's balance turn, no growth turn yet: G3 grows and takes G4, C5
    /// is a placement that takes C6. Growing B5 or D5 would touch C5 and
    /// throw its capture away (the placement may touch no stone of the
    /// turn), so they are believed bad; the captures very good.
    #[test]
    fn growths_that_spoil_the_balance_placement_are_bad() {
        let pos: Position = "sygo 9 W8/3W5/2B4W1/1BWB5/6B2/5BWB1/1W7/4W1B2/8W b - 0"
            .parse()
            .unwrap();
        assert!(pos.balance_available());
        for capture in ["G3", "C5"] {
            assert!(prior_of(&pos, capture).value >= 0.8, "{capture}");
        }
        for spoiler in ["B5", "D5"] {
            assert!(prior_of(&pos, spoiler).value < 0.2, "{spoiler}");
        }
        // With the learned weights mixed in (the default), the captures are
        // still believed well above an even step, the spoilers well below.
        let default = PriorSettings::default();
        for capture in ["G3", "C5"] {
            assert!(
                prior_with(&pos, capture, &default).value >= 0.7,
                "{capture}"
            );
        }
        for spoiler in ["B5", "D5"] {
            assert!(prior_with(&pos, spoiler, &default).value < 0.3, "{spoiler}");
        }
        // Once a growth turn has been played, C5 ends no growth, and B5 is
        // an ordinary growth again.
        let later: Position = "sygo 9 W8/3W5/2B4W1/1BWB5/6B2/5BWB1/1W7/4W1B2/8W b g 0"
            .parse()
            .unwrap();
        assert!(prior_of(&later, "B5").value > 0.4);
    }

    /// Black's B1 and D1 (Sygo 5×5) each leave a group without a liberty
    /// until the other fills White C1's last liberty and the capture unites
    /// them with C2: stones of a capturing turn, believed good, not
    /// self-ataris; once one is played, the other captures.
    #[test]
    fn a_stone_rescued_by_a_later_capture_is_believed_good() {
        let mut pos: Position = "sygo 5 4W/5/5/WWBWW/B1W1B b - 0".parse().unwrap();
        for stone in ["B1", "D1"] {
            assert!(prior_of(&pos, stone).value >= 0.78, "{stone}");
            let default = prior_with(&pos, stone, &PriorSettings::default());
            assert!(default.value >= 0.7, "{stone}: {default:?}");
        }
        pos.play_step(pos.geometry().parse_point("B1").unwrap())
            .unwrap();
        assert!(prior_of(&pos, "D1").value >= 0.8);
    }

    /// White's A1 (Sygo 7×7) has two liberties: A2, next to Black's A3 (a
    /// growth), and B1, next to no black stone (a placement). Only the
    /// balance turn A2 then B1 takes it: A2 is believed good; B1 played
    /// first would end the turn and take nothing, so it gets no credit for
    /// the capture until A2 is on the board.
    #[test]
    fn the_balance_placement_counts_once_the_growth_is_played() {
        let mut pos: Position = "sygo 7 7/5W1/2B1W2/3W3/B3B2/7/W6 b - 0".parse().unwrap();
        assert!(prior_of(&pos, "A2").value >= 0.78);
        assert!(prior_of(&pos, "B1").value < 0.6);
        pos.play_step(pos.geometry().parse_point("A2").unwrap())
            .unwrap();
        assert!(prior_of(&pos, "B1").value >= 0.8);
    }
}
