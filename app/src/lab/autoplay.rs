//! The lab page's step and autoplay controller as a pure state machine
//! (docs/PRODUCT.md, The AI lab): **Next turn**, **Autoplay** / **Pause**,
//! **Retry explanation**, the reading time between autoplay moves, freezing on
//! a failed explanation and stopping at the end of the game or on an error.
//!
//! [`Controller::handle`] takes an [`Event`] and answers the [`Effect`]s the
//! page must carry out (call the server, start a timer, show an error); the
//! page feeds the outcome back as another event. Nothing here touches the
//! network, timers or signals, so every transition is unit-tested below.

/// What the page knows about the lab game when an event happens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The game is over.
    pub over: bool,
    /// The latest explanation failed (autoplay freezes until it is retried).
    pub failed: bool,
    /// A Next turn may be asked for now (not over, no explanation pending or
    /// failed).
    pub can_step: bool,
}

/// Which request is in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// A Next turn from the button or the N key.
    Manual,
    /// An autoplay step of the given autoplay run.
    Auto(u64),
    /// Retry explanation.
    Retry,
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The Next turn button or the N key.
    Next(Game),
    /// The Autoplay button.
    Start(Game),
    /// The Pause button, or the page going away.
    Pause,
    /// A timer started by [`Effect::Schedule`] fired.
    Tick { run: u64, game: Game },
    /// The request in flight finished; `game` is the state it left.
    Done(Game),
    /// The request in flight failed with this message.
    Failed(String),
    /// The Retry explanation button.
    Retry,
}

/// How long a scheduled tick waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Nothing: tick at once.
    Now,
    /// The reading time the visitor chose.
    Reading,
    /// A short look again (a manual step was still in flight).
    Poll,
}

/// What the page must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Clear the error line.
    ClearError,
    /// Show this error.
    ShowError(String),
    /// Play a turn (or, if the latest explanation is pending, wait for it),
    /// then wait for its explanation; answer [`Event::Done`] or
    /// [`Event::Failed`].
    Step,
    /// Ask again for the failed explanation and wait for it; answer
    /// [`Event::Done`] or [`Event::Failed`].
    RetryExplanation,
    /// Send [`Event::Tick`] for autoplay run `run` after `wait`.
    Schedule { run: u64, wait: Wait },
}

/// The controller's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Controller {
    /// Autoplay is on.
    autoplay: bool,
    /// The current autoplay run; a pause or a restart makes older timers void.
    run: u64,
    /// The request in flight, if any.
    job: Option<Job>,
}

impl Controller {
    pub fn new() -> Self {
        Self::default()
    }

    /// Autoplay is on.
    pub fn autoplay(&self) -> bool {
        self.autoplay
    }

    /// A request is in flight (buttons wait).
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Autoplay is on but stopped on a failed explanation.
    pub fn frozen(&self, game: Game) -> bool {
        self.autoplay && game.failed
    }

    /// Whether the Next turn button is enabled.
    pub fn can_next(&self, game: Game) -> bool {
        game.can_step && !self.busy() && !self.autoplay
    }

    /// Takes one event; answers what the page must do.
    pub fn handle(&mut self, event: Event) -> Vec<Effect> {
        match event {
            Event::Next(game) => {
                if !self.can_next(game) {
                    return Vec::new();
                }
                self.job = Some(Job::Manual);
                vec![Effect::ClearError, Effect::Step]
            }
            Event::Start(_) => {
                self.run += 1;
                self.autoplay = true;
                vec![Effect::Schedule {
                    run: self.run,
                    wait: Wait::Now,
                }]
            }
            Event::Pause => {
                self.run += 1;
                self.autoplay = false;
                Vec::new()
            }
            Event::Tick { run, game } => {
                if !self.autoplay || run != self.run {
                    return Vec::new();
                }
                if game.over {
                    self.autoplay = false;
                    return Vec::new();
                }
                if game.failed {
                    // Frozen: the page shows the failure and Retry explanation.
                    return Vec::new();
                }
                if self.busy() {
                    return vec![Effect::Schedule {
                        run,
                        wait: Wait::Poll,
                    }];
                }
                self.job = Some(Job::Auto(run));
                vec![Effect::ClearError, Effect::Step]
            }
            Event::Retry => {
                if self.busy() {
                    return Vec::new();
                }
                self.job = Some(Job::Retry);
                vec![Effect::ClearError, Effect::RetryExplanation]
            }
            Event::Done(game) => match self.job.take() {
                None | Some(Job::Manual) => Vec::new(),
                Some(Job::Auto(run)) => {
                    if game.over {
                        self.autoplay = false;
                        Vec::new()
                    } else if game.failed || !self.autoplay || run != self.run {
                        Vec::new()
                    } else {
                        vec![Effect::Schedule {
                            run,
                            wait: Wait::Reading,
                        }]
                    }
                }
                Some(Job::Retry) => {
                    if self.autoplay && !game.failed && !game.over {
                        // Autoplay was frozen on the failure: it goes on.
                        vec![Effect::Schedule {
                            run: self.run,
                            wait: Wait::Reading,
                        }]
                    } else {
                        Vec::new()
                    }
                }
            },
            Event::Failed(message) => {
                if let Some(Job::Auto(_)) = self.job.take() {
                    self.autoplay = false;
                }
                vec![Effect::ShowError(message)]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYING: Game = Game {
        over: false,
        failed: false,
        can_step: true,
    };
    const EXPLAINING: Game = Game {
        over: false,
        failed: false,
        can_step: false,
    };
    const FAILED: Game = Game {
        over: false,
        failed: true,
        can_step: false,
    };
    const OVER: Game = Game {
        over: true,
        failed: false,
        can_step: false,
    };

    fn step() -> Vec<Effect> {
        vec![Effect::ClearError, Effect::Step]
    }

    fn schedule(run: u64, wait: Wait) -> Vec<Effect> {
        vec![Effect::Schedule { run, wait }]
    }

    /// A controller whose autoplay run 1 is stepping.
    fn autoplaying() -> Controller {
        let mut c = Controller::new();
        assert_eq!(c.handle(Event::Start(PLAYING)), schedule(1, Wait::Now));
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: PLAYING
            }),
            step()
        );
        c
    }

    #[test]
    fn next_steps_once_and_ignores_presses_while_busy() {
        let mut c = Controller::new();
        assert!(c.can_next(PLAYING));
        assert_eq!(c.handle(Event::Next(PLAYING)), step());
        assert!(c.busy());
        assert!(!c.can_next(PLAYING));
        assert_eq!(c.handle(Event::Next(PLAYING)), vec![]);
        assert_eq!(c.handle(Event::Done(PLAYING)), vec![]);
        assert!(!c.busy());
        assert!(!c.autoplay());
    }

    #[test]
    fn next_is_refused_when_the_game_cannot_step() {
        for game in [EXPLAINING, FAILED, OVER] {
            let mut c = Controller::new();
            assert!(!c.can_next(game));
            assert_eq!(c.handle(Event::Next(game)), vec![]);
            assert!(!c.busy());
        }
    }

    #[test]
    fn next_is_refused_during_autoplay() {
        let mut c = Controller::new();
        c.handle(Event::Start(PLAYING));
        assert_eq!(c.handle(Event::Next(PLAYING)), vec![]);
        assert!(!c.busy());
    }

    #[test]
    fn a_failed_manual_step_shows_the_error_and_frees_the_buttons() {
        let mut c = Controller::new();
        c.handle(Event::Next(PLAYING));
        assert_eq!(
            c.handle(Event::Failed("No such lab game.".into())),
            vec![Effect::ShowError("No such lab game.".into())]
        );
        assert!(!c.busy());
        assert!(c.can_next(PLAYING));
    }

    #[test]
    fn autoplay_steps_then_waits_the_reading_time_then_steps_again() {
        let mut c = autoplaying();
        assert!(c.autoplay() && c.busy());
        assert_eq!(c.handle(Event::Done(PLAYING)), schedule(1, Wait::Reading));
        assert!(!c.busy());
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: PLAYING
            }),
            step()
        );
    }

    #[test]
    fn autoplay_stops_at_the_end_of_the_game() {
        let mut c = autoplaying();
        assert_eq!(c.handle(Event::Done(OVER)), vec![]);
        assert!(!c.autoplay());
        // Started on a finished game: the first tick switches it off.
        let mut c = Controller::new();
        c.handle(Event::Start(OVER));
        assert_eq!(c.handle(Event::Tick { run: 1, game: OVER }), vec![]);
        assert!(!c.autoplay());
    }

    #[test]
    fn autoplay_freezes_on_a_failed_explanation_and_goes_on_after_a_retry() {
        let mut c = autoplaying();
        assert_eq!(c.handle(Event::Done(FAILED)), vec![]);
        assert!(c.autoplay());
        assert!(c.frozen(FAILED));
        // A stray tick while frozen does nothing.
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: FAILED
            }),
            vec![]
        );
        assert_eq!(
            c.handle(Event::Retry),
            vec![Effect::ClearError, Effect::RetryExplanation]
        );
        assert_eq!(c.handle(Event::Retry), vec![], "one retry at a time");
        assert_eq!(c.handle(Event::Done(PLAYING)), schedule(1, Wait::Reading));
        assert!(!c.frozen(PLAYING));
    }

    #[test]
    fn a_retry_that_fails_again_keeps_autoplay_frozen() {
        let mut c = autoplaying();
        c.handle(Event::Done(FAILED));
        c.handle(Event::Retry);
        assert_eq!(c.handle(Event::Done(FAILED)), vec![]);
        assert!(c.autoplay() && c.frozen(FAILED) && !c.busy());
    }

    #[test]
    fn a_retry_without_autoplay_schedules_nothing() {
        let mut c = Controller::new();
        c.handle(Event::Retry);
        assert!(c.busy());
        assert_eq!(c.handle(Event::Done(PLAYING)), vec![]);
        assert!(!c.busy());
    }

    #[test]
    fn a_retry_error_is_shown_and_autoplay_stays_as_it_was() {
        let mut c = autoplaying();
        c.handle(Event::Done(FAILED));
        c.handle(Event::Retry);
        assert_eq!(
            c.handle(Event::Failed("The lab is unavailable".into())),
            vec![Effect::ShowError("The lab is unavailable".into())]
        );
        assert!(c.autoplay() && !c.busy());
    }

    #[test]
    fn an_autoplay_error_stops_autoplay_and_is_shown() {
        let mut c = autoplaying();
        assert_eq!(
            c.handle(Event::Failed("The AI is busy".into())),
            vec![Effect::ShowError("The AI is busy".into())]
        );
        assert!(!c.autoplay() && !c.busy());
    }

    #[test]
    fn pause_voids_pending_timers_and_the_step_in_flight_schedules_nothing() {
        let mut c = autoplaying();
        assert_eq!(c.handle(Event::Pause), vec![]);
        assert!(!c.autoplay());
        assert!(c.busy(), "the step in flight still finishes");
        assert_eq!(c.handle(Event::Done(PLAYING)), vec![]);
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: PLAYING
            }),
            vec![]
        );
        assert!(!c.busy());
    }

    #[test]
    fn a_restart_makes_the_old_runs_timers_void() {
        let mut c = Controller::new();
        c.handle(Event::Start(PLAYING));
        c.handle(Event::Pause);
        assert_eq!(c.handle(Event::Start(PLAYING)), schedule(3, Wait::Now));
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: PLAYING
            }),
            vec![]
        );
        assert_eq!(
            c.handle(Event::Tick {
                run: 3,
                game: PLAYING
            }),
            step()
        );
    }

    #[test]
    fn an_autoplay_tick_during_a_manual_step_looks_again_shortly() {
        let mut c = Controller::new();
        c.handle(Event::Next(PLAYING));
        assert_eq!(c.handle(Event::Start(PLAYING)), schedule(1, Wait::Now));
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: PLAYING
            }),
            schedule(1, Wait::Poll)
        );
        // The manual step ends; autoplay's next tick steps.
        assert_eq!(c.handle(Event::Done(PLAYING)), vec![]);
        assert_eq!(
            c.handle(Event::Tick {
                run: 1,
                game: PLAYING
            }),
            step()
        );
    }

    #[test]
    fn an_old_runs_step_finishing_after_a_restart_schedules_nothing() {
        let mut c = autoplaying();
        c.handle(Event::Pause);
        c.handle(Event::Start(PLAYING)); // run 3, waits for the step in flight
        assert_eq!(c.handle(Event::Done(PLAYING)), vec![]);
        assert_eq!(
            c.handle(Event::Tick {
                run: 3,
                game: PLAYING
            }),
            step()
        );
    }

    #[test]
    fn a_stray_done_or_failure_with_nothing_in_flight_is_harmless() {
        let mut c = Controller::new();
        assert_eq!(c.handle(Event::Done(PLAYING)), vec![]);
        assert_eq!(
            c.handle(Event::Failed("x".into())),
            vec![Effect::ShowError("x".into())]
        );
        assert_eq!(c, Controller::new());
    }
}
