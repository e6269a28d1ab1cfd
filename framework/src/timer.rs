//! The timer behind the header-read timeout: hyper moves its deadline for
//! every request a connection reads, so a plain tokio timer is re-armed in
//! the timer wheel each time (measured: about a tenth of a plaintext
//! request's instructions). This one keeps the wheel entry and only records
//! the new deadline; when the entry fires early, it is re-armed once for the
//! deadline that now holds. Firing stays exact: never before the deadline.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::{Duration, Instant},
};

use hyper::rt::{Sleep, Timer};

/// A [`Timer`] whose deadline moves without touching tokio's timer wheel.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LazyTimer;

impl Timer for LazyTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Sleep>> {
        self.sleep_until(self.now() + duration)
    }

    /// tokio's clock, which the wheel runs on (and tests can pause).
    fn now(&self) -> Instant {
        tokio::time::Instant::now().into_std()
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn Sleep>> {
        Box::pin(LazySleep {
            deadline,
            armed: Box::pin(tokio::time::sleep_until(deadline.into())),
        })
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn Sleep>>, new_deadline: Instant) {
        match sleep.as_mut().downcast_mut_pin::<LazySleep>() {
            Some(lazy) => lazy.get_mut().move_to(new_deadline),
            None => *sleep = self.sleep_until(new_deadline),
        }
    }
}

/// A sleep whose wheel entry (`armed`) may be earlier than its deadline.
struct LazySleep {
    deadline: Instant,
    armed: Pin<Box<tokio::time::Sleep>>,
}

impl LazySleep {
    fn move_to(&mut self, deadline: Instant) {
        if deadline < self.armed.deadline().into_std() {
            self.armed.as_mut().reset(deadline.into());
        }
        self.deadline = deadline;
    }
}

impl Sleep for LazySleep {}

impl Future for LazySleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        loop {
            if this.armed.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            if tokio::time::Instant::now() >= this.deadline.into() {
                return Poll::Ready(());
            }
            // Fired for an earlier deadline: wait for the one that holds.
            this.armed.as_mut().reset(this.deadline.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn fires_at_the_latest_deadline_never_before() {
        let timer = LazyTimer;
        let start = timer.now();
        let mut sleep = timer.sleep(Duration::from_secs(10));
        tokio::time::sleep(Duration::from_secs(5)).await;
        // Moved later: the first wheel entry fires at 10 s and is re-armed.
        timer.reset(&mut sleep, start + Duration::from_secs(20));
        let waited = tokio::time::timeout(Duration::from_secs(14), sleep.as_mut()).await;
        assert!(waited.is_err(), "fired before its deadline");
        sleep.as_mut().await;
        assert!(timer.now() >= start + Duration::from_secs(20));
        assert!(timer.now() < start + Duration::from_secs(21));
    }

    #[tokio::test(start_paused = true)]
    async fn moving_a_deadline_earlier_rearms_at_once() {
        let timer = LazyTimer;
        let start = timer.now();
        let mut sleep = timer.sleep(Duration::from_secs(30));
        timer.reset(&mut sleep, start + Duration::from_secs(2));
        sleep.as_mut().await;
        let elapsed = timer.now() - start;
        assert!(
            elapsed >= Duration::from_secs(2) && elapsed < Duration::from_secs(3),
            "{elapsed:?}"
        );
    }
}
