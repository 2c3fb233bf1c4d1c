//! The 12-sided Combat die and rolling pools of them (docs/RULES.md §6.1).

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A face of the Combat die.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    Blank,
    Hit,
    DoubleHit,
    Critical,
    Shield,
    DoubleShield,
}

impl Face {
    /// Non-critical hits this face scores.
    #[must_use]
    pub const fn hits(self) -> u32 {
        match self {
            Face::Hit => 1,
            Face::DoubleHit => 2,
            _ => 0,
        }
    }

    #[must_use]
    pub const fn crits(self) -> u32 {
        matches!(self, Face::Critical) as u32
    }

    #[must_use]
    pub const fn shields(self) -> u32 {
        match self {
            Face::Shield => 1,
            Face::DoubleShield => 2,
            _ => 0,
        }
    }
}

/// How many of the 12 faces show each symbol (`[die]` in `rules.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DieFaces {
    pub blank: u32,
    pub hit: u32,
    pub double_hit: u32,
    pub critical: u32,
    pub shield: u32,
    pub double_shield: u32,
}

impl Default for DieFaces {
    /// Example counts, not the printed die (docs/RULES.md §6.1).
    fn default() -> DieFaces {
        DieFaces {
            blank: 4,
            hit: 3,
            double_hit: 1,
            critical: 1,
            shield: 2,
            double_shield: 1,
        }
    }
}

impl DieFaces {
    #[must_use]
    pub fn total(&self) -> u32 {
        self.blank + self.hit + self.double_hit + self.critical + self.shield + self.double_shield
    }

    /// The face shown by side `i` of the die, `0 <= i < total()`.
    #[must_use]
    pub fn face(&self, mut i: u32) -> Face {
        for (n, f) in [
            (self.blank, Face::Blank),
            (self.hit, Face::Hit),
            (self.double_hit, Face::DoubleHit),
            (self.critical, Face::Critical),
            (self.shield, Face::Shield),
            (self.double_shield, Face::DoubleShield),
        ] {
            if i < n {
                return f;
            }
            i -= n;
        }
        Face::Blank
    }

    /// Roll one die.
    pub fn roll(&self, rng: &mut ChaCha8Rng) -> Face {
        let total = self.total().max(1);
        self.face(rng.random_range(0..total))
    }
}

/// Result of rolling one side's pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// Dice actually rolled (after the cap).
    pub dice: u32,
    pub faces: Vec<Face>,
    /// BLANKs turned into HITs by Combat Value above the cap.
    pub upgraded: u32,
}

impl Roll {
    #[must_use]
    pub fn hits(&self) -> u32 {
        self.faces.iter().map(|f| f.hits()).sum::<u32>() + self.upgraded
    }

    #[must_use]
    pub fn crits(&self) -> u32 {
        self.faces.iter().map(|f| f.crits()).sum()
    }

    #[must_use]
    pub fn shields(&self) -> u32 {
        self.faces.iter().map(|f| f.shields()).sum()
    }
}

/// Roll an attack pool of Combat Value `cv`: at most `max_dice` dice; each point above the cap
/// turns one rolled BLANK (never a shield face) into a HIT.
pub fn roll_attack(cv: u32, max_dice: u32, faces: &DieFaces, rng: &mut ChaCha8Rng) -> Roll {
    let dice = cv.min(max_dice);
    let rolled: Vec<Face> = (0..dice).map(|_| faces.roll(rng)).collect();
    let blanks = rolled.iter().filter(|f| **f == Face::Blank).count() as u32;
    let upgraded = cv.saturating_sub(max_dice).min(blanks);
    Roll {
        dice,
        faces: rolled,
        upgraded,
    }
}

/// Roll a defence pool: at most `max_dice`, no bonus for Combat Value above the cap.
pub fn roll_defence(cv: u32, max_dice: u32, faces: &DieFaces, rng: &mut ChaCha8Rng) -> Roll {
    let dice = cv.min(max_dice);
    Roll {
        dice,
        faces: (0..dice).map(|_| faces.roll(rng)).collect(),
        upgraded: 0,
    }
}

/// Damage after shields: criticals always land; each shield cancels one other hit.
#[must_use]
pub fn damage(attack: &Roll, defence: &Roll) -> u32 {
    attack.crits() + attack.hits().saturating_sub(defence.shields())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn roll_of(faces: &[Face], upgraded: u32) -> Roll {
        Roll {
            dice: faces.len() as u32,
            faces: faces.to_vec(),
            upgraded,
        }
    }

    #[test]
    fn shields_cancel_hits_not_criticals() {
        let a = roll_of(&[Face::Hit, Face::DoubleHit, Face::Critical], 0);
        let d = roll_of(&[Face::DoubleShield, Face::Shield, Face::Shield], 0);
        // 3 hits - 4 shields => 0, plus 1 critical.
        assert_eq!(damage(&a, &d), 1);
        let d1 = roll_of(&[Face::Shield], 0);
        assert_eq!(damage(&a, &d1), 3);
    }

    #[test]
    fn at_most_five_dice_and_bonus_upgrades_blanks_only() {
        let all_blank = DieFaces {
            blank: 12,
            hit: 0,
            double_hit: 0,
            critical: 0,
            shield: 0,
            double_shield: 0,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let r = roll_attack(8, 5, &all_blank, &mut rng);
        assert_eq!(r.dice, 5);
        assert_eq!(r.upgraded, 3);
        assert_eq!(r.hits(), 3);
        let all_shield = DieFaces {
            blank: 0,
            shield: 12,
            ..all_blank.clone()
        };
        let r = roll_attack(8, 5, &all_shield, &mut rng);
        assert_eq!(r.upgraded, 0, "shield faces are never upgraded");
        let d = roll_defence(9, 5, &all_blank, &mut rng);
        assert_eq!((d.dice, d.upgraded), (5, 0), "defence gets no bonus");
    }

    #[test]
    fn faces_follow_counts() {
        let f = DieFaces::default();
        assert_eq!(f.total(), 12);
        let counts: Vec<Face> = (0..12).map(|i| f.face(i)).collect();
        assert_eq!(counts.iter().filter(|x| **x == Face::Blank).count(), 4);
        assert_eq!(counts.iter().filter(|x| **x == Face::Shield).count(), 2);
        assert_eq!(counts[11], Face::DoubleShield);
    }
}
