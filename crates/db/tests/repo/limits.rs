//! Shared counters on both databases: windows and streaks start over when they should, refunds
//! and forgetting, and counts made at the same moment by many callers all add up.

use std::sync::Arc;

use chrono::{Duration, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::ports::{Counter, Restart, SharedCounters};

use crate::gifs::t0;
use crate::on_both_backends;

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

/// A fixed window of 60 s at `now`.
fn window(now: NaiveDateTime) -> Restart {
    Restart::IfBeganBy(now - Duration::seconds(60))
}

async fn a_window_counts_then_starts_over(db: &Database) {
    let at = |s: i64| t0() + Duration::seconds(s);
    assert_eq!(ok(db.read("w").await), None);
    assert_eq!(ok(db.bump("w", at(0), window(at(0))).await), Counter { count: 1, began: at(0), last: at(0) });
    assert_eq!(ok(db.bump("w", at(10), window(at(10))).await), Counter { count: 2, began: at(0), last: at(10) });
    assert_eq!(ok(db.bump("w", at(59), window(at(59))).await).count, 3, "still the first window");
    assert_eq!(ok(db.bump("other", at(59), window(at(59))).await).count, 1, "keys are apart");
    ok(db.refund("w").await);
    assert_eq!(ok(db.read("w").await).map(|c| c.count), Some(2), "a refund takes one back");
    let next = ok(db.bump("w", at(60), window(at(60))).await);
    assert_eq!(next, Counter { count: 1, began: at(60), last: at(60) }, "a new window begins");
    ok(db.forget("w").await);
    assert_eq!(ok(db.read("w").await), None);
    ok(db.refund("w").await);
    assert_eq!(ok(db.read("w").await), None, "refunding nothing changes nothing");
}

async fn a_streak_lasts_while_counts_keep_coming(db: &Database) {
    let at = |h: i64| t0() + Duration::hours(h);
    let streak = |now: NaiveDateTime| Restart::IfLastBy(now - Duration::days(1));
    for h in 0..3 {
        ok(db.bump("s", at(h * 20), streak(at(h * 20))).await);
    }
    assert_eq!(ok(db.read("s").await).map(|c| (c.count, c.began)), Some((3, at(0))), "each count within a day");
    let after_a_quiet_day = ok(db.bump("s", at(40 + 24), streak(at(40 + 24))).await);
    assert_eq!((after_a_quiet_day.count, after_a_quiet_day.began), (1, at(64)));
    assert_eq!(ok(db.forget_older(at(64)).await), 0, "counted at 64 h: kept");
    assert_eq!(ok(db.forget_older(at(65)).await), 1);
    assert_eq!(ok(db.read("s").await), None);
}

async fn counts_at_the_same_moment_all_add_up(db: &Database) {
    let db = Arc::new(db.clone());
    let bumps: Vec<_> = (0..24)
        .map(|_| {
            let db = db.clone();
            tokio::spawn(async move { db.bump("busy", t0(), window(t0())).await })
        })
        .collect();
    let mut seen: Vec<i64> = Vec::new();
    for bump in bumps {
        seen.push(ok(ok(bump.await)).count);
    }
    seen.sort_unstable();
    assert_eq!(seen, (1..=24).collect::<Vec<_>>(), "every caller saw its own count");
}

on_both_backends!(
    a_window_counts_then_starts_over,
    a_streak_lasts_while_counts_keep_coming,
    counts_at_the_same_moment_all_add_up,
);
