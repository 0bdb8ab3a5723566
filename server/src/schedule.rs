//! The server's recurring tournaments (`--tournament-schedule`): each entry
//! is `daily@HH:MM/<control>/<rounds>` or `hourly@:MM/<control>/<rounds>`
//! (UTC) for a Swiss, with `arena<minutes>` in place of the rounds for an
//! arena, e.g. `daily@19:00/5+0/5,hourly@:00/3+2/arena45`; `none` schedules
//! nothing. The director keeps the next occurrence of each entry open for
//! joining (created a day or an hour ahead), under an id derived from the
//! entry and its start, so instances that create it at once create one.

use app::protocol::TimeControl;

/// How often an entry recurs: the schedule's one enum, whose stored names
/// the pages and exports read back (`app::tournaments::scheduled_name`).
pub use app::tournaments::Scheduled as Every;

/// The whole schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule(pub Vec<Scheduled>);

/// One recurring tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    pub every: Every,
    /// The start's offset in its hour or day (ms).
    pub at_ms: i64,
    pub control: TimeControl,
    /// A Swiss's rounds (0 for an arena).
    pub rounds: u32,
    /// An arena's length in minutes (None: a Swiss).
    pub arena_minutes: Option<u32>,
}

impl Scheduled {
    /// Reads one entry.
    pub fn parse(text: &str) -> Result<Scheduled, String> {
        let bad = || {
            format!("a schedule entry is daily@HH:MM/<m+s>/<rounds> or hourly@:MM/<m+s>/<rounds> (arena<minutes> for an arena), not {text:?}")
        };
        let mut parts = text.trim().split('/');
        let (when, control, rounds) = match (parts.next(), parts.next(), parts.next(), parts.next())
        {
            (Some(w), Some(c), Some(r), None) => (w, c, r),
            _ => return Err(bad()),
        };
        let (every, at) = when.split_once('@').ok_or_else(bad)?;
        let (hours, minutes) = at.split_once(':').ok_or_else(bad)?;
        let minutes: i64 = minutes.parse().map_err(|_| bad())?;
        let (every, hours) = match every {
            "daily" => (Every::Daily, hours.parse::<i64>().map_err(|_| bad())?),
            "hourly" if hours.is_empty() => (Every::Hourly, 0),
            _ => return Err(bad()),
        };
        if !(0..24).contains(&hours) || !(0..60).contains(&minutes) {
            return Err(bad());
        }
        let control = TimeControl::parse(control)
            .filter(TimeControl::is_preset)
            .ok_or_else(bad)?;
        let (rounds, arena_minutes) = match rounds.strip_prefix("arena") {
            Some(length) => {
                let length: u32 = length.parse().map_err(|_| bad())?;
                if !app::tournaments::ARENA_MINUTES.contains(&length) {
                    return Err(bad());
                }
                (0, Some(length))
            }
            None => {
                let rounds: u32 = rounds.parse().map_err(|_| bad())?;
                if !app::tournaments::ROUNDS.contains(&rounds) {
                    return Err(bad());
                }
                (rounds, None)
            }
        };
        Ok(Scheduled {
            every,
            at_ms: (hours * 60 + minutes) * 60_000,
            control,
            rounds,
            arena_minutes,
        })
    }

    /// Reads a whole schedule (`none`: empty).
    pub fn parse_all(text: &str) -> Result<Schedule, String> {
        if text.trim() == "none" || text.trim().is_empty() {
            return Ok(Schedule::default());
        }
        text.split(',')
            .map(Scheduled::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(Schedule)
    }

    /// The first start strictly after `now`.
    pub fn next_after(&self, now: i64) -> i64 {
        let period = self.every.period_ms();
        let start = now.div_euclid(period) * period + self.at_ms;
        if start > now {
            start
        } else {
            start + period
        }
    }

    /// The id of the occurrence starting at `start`: the same on every
    /// instance.
    pub fn id_at(&self, start: i64) -> String {
        let every = match self.every {
            Every::Hourly => 'h',
            Every::Daily => 'd',
        };
        let format = match self.arena_minutes {
            Some(minutes) => format!("a{minutes}"),
            None => format!("r{}", self.rounds),
        };
        format!(
            "{every}{:x}{}x{}{format}",
            start / 60_000,
            self.control.base_s,
            self.control.increment_s,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_parse_and_recur() {
        let daily = Scheduled::parse("daily@19:00/5+0/5").unwrap();
        assert_eq!(daily.every, Every::Daily);
        assert_eq!(daily.control, TimeControl::PRESETS[1]);
        assert_eq!(daily.rounds, 5);
        // 2026-12-05 10:00 UTC → that day 19:00; at 19:00 → the next day.
        let day = 1_796_428_800_000i64; // 2026-12-05 00:00 UTC
        assert_eq!(daily.next_after(day + 10 * 3_600_000), day + 19 * 3_600_000);
        assert_eq!(daily.next_after(day + 19 * 3_600_000), day + 43 * 3_600_000);
        let hourly = Scheduled::parse("hourly@:30/3+2/3").unwrap();
        assert_eq!(hourly.next_after(day + 10 * 60_000), day + 30 * 60_000);
        assert_eq!(hourly.next_after(day + 31 * 60_000), day + 90 * 60_000);
        assert_ne!(hourly.id_at(day), daily.id_at(day));
        assert_eq!(Scheduled::parse_all("none").unwrap(), Schedule::default());
        assert_eq!(
            Scheduled::parse_all("daily@19:00/5+0/5,hourly@:30/3+2/3")
                .unwrap()
                .0
                .len(),
            2
        );
        let arena = Scheduled::parse("hourly@:00/3+2/arena45").unwrap();
        assert_eq!(arena.arena_minutes, Some(45));
        assert_ne!(arena.id_at(day), hourly.id_at(day));
        assert_eq!(daily.arena_minutes, None);
        for bad in [
            "hourly@:00/3+2/arena2",
            "hourly@:00/3+2/arena",
            "daily@25:00/5+0/5",
            "hourly@3:30/3+2/3",
            "daily@19:00/7+0/5",
            "daily@19:00/5+0/0",
            "weekly@1:00/5+0/5",
            "daily@19:00/5+0",
        ] {
            assert!(Scheduled::parse(bad).is_err(), "{bad}");
        }
    }
}
