//! A section's live feed as a client follows it: the events of
//! `GET /bbs/articles/:section/events`.
//!
//! What resuming guarantees. Every change of an article is stored with an
//! event in the same transaction, numbered in commit order, and each event
//! goes out with its number as its SSE id. A client that reconnects with
//! `Last-Event-ID: n` (or `?after=n`), to this replica or any other on the
//! same database, after a restart of every replica or none, gets every
//! event of the section after `n`, in order, each once, then follows live.
//! This holds while `n` is among the newest [`FEED_RETENTION`] events of
//! the board; a client further behind (or with an id this board never
//! gave) gets one `reset` event instead, telling it to reload the listing
//! and go on from that event's id. Erasing an article removes its earlier
//! events (they hold its title): a client that resumes from before the
//! erasure learns only that it was erased.
//!
//! Why events are kept in the database rather than only in memory: a
//! replica's memory knows neither what another replica sent nor what was
//! sent before it started, so a client that reconnects elsewhere (a
//! rolling restart moves every client) would have no way to catch up.
//!
//! What a slow client costs. Live events reach this process's followers
//! through one broadcast channel of bounded size, shared by all of them
//! ([`DEFAULT_FEED_BUFFER`](crate::store::DEFAULT_FEED_BUFFER) events). A
//! follower is polled only as fast as its socket takes the events; one
//! that falls more than the channel's capacity behind has lost the oldest
//! from the channel, and catches up from the table instead, a page at a
//! time as it reads, then follows live again: nothing is lost, nothing is
//! sent twice, no one else waits, and a slow client holds at most the
//! socket's buffers and one page in the server's memory. The catch-ups
//! are counted (`bbs_feed_catch_ups_total`), as are open streams
//! (`bbs_feed_followers`).

use std::{collections::VecDeque, sync::Arc};

use framework::sse::Event;
use futures_util::Stream;
use tokio::sync::broadcast::{self, error::RecvError};

use crate::{
    dto::ArticleEvent,
    store::{ArticleStore, FEED_RETENTION, FeedEntry, FollowerGuard, StoreError},
};

/// Events read from the table at a time while a client catches up.
const REPLAY_PAGE: u32 = 256;

/// The events of `section`: after the event `after` when a client resumes
/// (replayed from the table, then live), else from the next one on.
///
/// # Errors
/// The database could not say where the feed is.
pub async fn follow(
    store: &ArticleStore,
    section: String,
    after: Option<u64>,
) -> Result<impl Stream<Item = Event<ArticleEvent>> + Send + 'static, StoreError> {
    // Subscribed before reading the position: whatever is committed after
    // the position was read is broadcast to this receiver.
    let receiver = store.subscribe();
    let position = store.feed_position().await?;
    let mut follower = Follower {
        store: store.clone(),
        section,
        cursor: position,
        receiver,
        phase: Phase::Live,
        reset: None,
        _open: store.feed_metrics().follower(),
    };
    match start(after, position) {
        Start::Next => {}
        Start::After(after) => {
            follower.cursor = after;
            follower.phase = Phase::catching_up();
        }
        Start::Reset => {
            let reset = Event::new(ArticleEvent::Reset).name("reset");
            follower.reset = Some(reset.id(position.to_string()));
        }
    }
    Ok(futures_util::stream::unfold(
        follower,
        |mut follower| async move {
            let event = follower.next().await?;
            Some((event, follower))
        },
    ))
}

/// Where a follower starts.
#[derive(Debug, PartialEq, Eq)]
enum Start {
    /// With the next event.
    Next,
    /// After this event, catching up from the table.
    After(u64),
    /// With a `reset`: the events after the client's are not all kept, or
    /// its id is beyond the newest.
    Reset,
}

/// Where a client that saw `after` starts when the newest event is
/// `position`. The table keeps every event after `position -
/// FEED_RETENTION`.
fn start(after: Option<u64>, position: u64) -> Start {
    match after {
        None => Start::Next,
        Some(after) if after > position || position - after > FEED_RETENTION => Start::Reset,
        Some(after) => Start::After(after),
    }
}

/// One client's place in the feed.
struct Follower {
    store: ArticleStore,
    section: String,
    /// The number of the last event sent (or skipped): nothing at or
    /// before it is sent again.
    cursor: u64,
    receiver: broadcast::Receiver<Arc<FeedEntry>>,
    phase: Phase,
    /// A `reset` to send first.
    reset: Option<Event<ArticleEvent>>,
    /// Counts this stream in `bbs_feed_followers` while it lives.
    _open: FollowerGuard,
}

enum Phase {
    /// Catching up from the table, a page at a time.
    Replay {
        page: VecDeque<FeedEntry>,
        /// The page read last was not full: after it, follow live.
        last_page: bool,
    },
    /// Following the broadcast.
    Live,
}

impl Phase {
    fn catching_up() -> Phase {
        Phase::Replay {
            page: VecDeque::new(),
            last_page: false,
        }
    }
}

impl Follower {
    /// The next event to send; `None` ends the stream.
    async fn next(&mut self) -> Option<Event<ArticleEvent>> {
        if let Some(reset) = self.reset.take() {
            return Some(reset);
        }
        loop {
            match &mut self.phase {
                Phase::Replay { page, last_page } => {
                    if let Some(entry) = page.pop_front() {
                        self.cursor = entry.seq;
                        return Some(event(&entry));
                    }
                    if *last_page {
                        self.phase = Phase::Live;
                        continue;
                    }
                    let read = self
                        .store
                        .section_events(&self.section, self.cursor, REPLAY_PAGE)
                        .await;
                    match read {
                        Ok(entries) => {
                            *last_page = entries.len() < REPLAY_PAGE as usize;
                            page.extend(entries);
                        }
                        Err(err) => {
                            // The client reconnects with `Last-Event-ID`.
                            tracing::warn!(%err, "replaying the feed failed; ending the stream");
                            return None;
                        }
                    }
                }
                Phase::Live => match self.receiver.recv().await {
                    Ok(entry) if entry.seq > self.cursor && entry.section == self.section => {
                        self.cursor = entry.seq;
                        return Some(event(&entry));
                    }
                    Ok(_) => {}
                    Err(RecvError::Lagged(lost)) => {
                        tracing::debug!(lost, "a feed client fell behind; catching up");
                        self.store.feed_metrics().caught_up();
                        self.phase = Phase::catching_up();
                    }
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }
}

/// An entry as an SSE event: its type as the name, its number as the id.
fn event(entry: &FeedEntry) -> Event<ArticleEvent> {
    Event::new(entry.event.clone())
        .name(entry.event.name())
        .id(entry.seq.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_starts_after_its_event_while_the_table_keeps_what_follows() {
        assert_eq!(start(None, 0), Start::Next);
        assert_eq!(start(None, 42), Start::Next);
        assert_eq!(start(Some(0), 0), Start::After(0));
        assert_eq!(start(Some(7), 42), Start::After(7));
        assert_eq!(start(Some(42), 42), Start::After(42));
        // Beyond the newest: not an id of this board.
        assert_eq!(start(Some(43), 42), Start::Reset);
        // The oldest kept is `position - FEED_RETENTION + 1`.
        let position = FEED_RETENTION + 100;
        assert_eq!(start(Some(100), position), Start::After(100));
        assert_eq!(start(Some(99), position), Start::Reset);
        assert_eq!(start(Some(0), position), Start::Reset);
    }
}
