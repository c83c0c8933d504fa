//! Work done after an answer was sent: durable jobs a pool of workers claims from the database.

use chrono::NaiveDateTime;

use crate::gif::GifId;
use crate::make::MakeId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JobId(pub i64);

/// What a job does. Stored as a kind name and a payload, so that a job enqueued by one version
/// is still understood (or refused with a readable error) by the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Make every rendition kind the GIF is missing (videos, chat sizes).
    MakeRenditions(GifId),
    /// Make a GIF by the maker's recipe (the make's row holds the recipe and the source).
    MakeGif(MakeId),
    /// Read the text in the GIF's frames (its caption), unless its text was edited.
    ReadText(GifId),
}

impl Task {
    pub const MAKE_RENDITIONS: &'static str = "make_renditions";
    pub const MAKE_GIF: &'static str = "make_gif";
    pub const READ_TEXT: &'static str = "read_text";

    /// The stored kind name and payload.
    pub fn encode(&self) -> (&'static str, String) {
        match self {
            Self::MakeRenditions(id) => (Self::MAKE_RENDITIONS, id.0.to_string()),
            Self::MakeGif(id) => (Self::MAKE_GIF, id.0.to_string()),
            Self::ReadText(id) => (Self::READ_TEXT, id.0.to_string()),
        }
    }

    /// What the job works on, named so that the same work is never queued twice: its kind and
    /// payload (`make_renditions:42`).
    pub fn dedup_key(&self) -> String {
        let (kind, payload) = self.encode();
        format!("{kind}:{payload}")
    }

    /// # Errors
    /// A sentence naming what could not be read (kept as the job's error).
    pub fn decode(kind: &str, payload: &str) -> Result<Self, String> {
        match kind {
            Self::MAKE_RENDITIONS => payload
                .trim()
                .parse::<i64>()
                .map(|id| Self::MakeRenditions(GifId(id)))
                .map_err(|_| format!("a {kind} job needs a GIF id, not {payload:?}")),
            Self::MAKE_GIF => payload
                .trim()
                .parse::<i64>()
                .map(|id| Self::MakeGif(MakeId(id)))
                .map_err(|_| format!("a {kind} job needs a make id, not {payload:?}")),
            Self::READ_TEXT => payload
                .trim()
                .parse::<i64>()
                .map(|id| Self::ReadText(GifId(id)))
                .map_err(|_| format!("a {kind} job needs a GIF id, not {payload:?}")),
            other => Err(format!("no worker knows jobs of kind {other:?}")),
        }
    }
}

/// A job as a worker holds it: claimed until `locked_until`, this claim being attempt `attempts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedJob {
    pub id: JobId,
    pub kind: String,
    pub payload: String,
    /// Counting this one.
    pub attempts: i32,
    pub locked_until: NaiveDateTime,
}

/// How many jobs wait, run and have failed for good.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JobCounts {
    pub queued: i64,
    pub running: i64,
    pub failed: i64,
}

/// The jobs of one kind by state, and since when the oldest of them waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindCounts {
    pub kind: String,
    pub counts: JobCounts,
    pub oldest_queued: Option<NaiveDateTime>,
}

/// A job given up on, with the error of its last attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedJob {
    pub id: JobId,
    pub kind: String,
    pub payload: String,
    pub attempts: i32,
    pub last_error: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_round_trip_and_unknown_ones_are_refused_with_a_sentence() {
        let task = Task::MakeRenditions(GifId(42));
        let (kind, payload) = task.encode();
        assert_eq!((kind, payload.as_str()), ("make_renditions", "42"));
        assert_eq!(Task::decode(kind, &payload), Ok(task));
        assert!(Task::decode("make_renditions", "x").unwrap_err().contains("GIF id"));
        assert!(Task::decode("print", "1").unwrap_err().contains("\"print\""));
        assert_eq!(task.dedup_key(), "make_renditions:42");
        assert_eq!(Task::decode("read_text", "7"), Ok(Task::ReadText(GifId(7))));
        assert_eq!(Task::ReadText(GifId(7)).dedup_key(), "read_text:7");
    }
}
