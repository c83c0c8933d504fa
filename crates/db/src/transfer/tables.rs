//! THE list of tables export/import moves: the single source of their names, order, columns, keys
//! and id sequences. The file's rows, the schema check, the emptiness check before an import and
//! the sequence marks all follow from it.
//!
//! # Adding a table
//!
//! A migration that creates a table (or adds a column) makes `gifshelf export` refuse to run
//! ("table … is not known to export/import") until the table is listed here. Add ONE entry to the
//! `tables!` call below:
//!
//! ```text
//! /// What the rows are (a sentence).
//! favourites => FavouriteRow {
//!     key: (user_id: i64, gif_id: i64),
//!     serial: false,
//!     columns: {
//!         user_id: i64,
//!         gif_id: i64,
//!         created_at: NaiveDateTime,
//!     },
//! },
//! ```
//!
//! - Its place in the list is its place in the file: after every table its rows refer to
//!   (`favourites` after `users` and `gifs`).
//! - `columns` are every column of the table in `crate::schema`, with the Rust type its diesel type
//!   reads as (`BigInt` → `i64`, `Integer` → `i32`, `Text` → `String`, `Bool` → `bool`,
//!   `Timestamp` → `NaiveDateTime`, `Nullable<T>` → `Option<T>`). Their order is the order of the
//!   keys in the file.
//! - `key` is the primary key (its columns with their types, in index order): export pages by it.
//! - `serial: true` when the table's `id` comes from a sequence (PostgreSQL) or AUTOINCREMENT
//!   (SQLite): the trailer records its high-water mark and import moves the sequence past it.
//!
//! Then `cargo test -p gifshelf-db --test transfer` checks the list against the live schema of both
//! backends (with `GIFSHELF_TEST_POSTGRES_URL` set) and moves a seeded instance both ways: seed the
//! new table in its `seed` too. Tables that are not data (diesel's, SQLite's, search indexes) are
//! in the skip list of `schema_check.rs`, each with its reason.

use chrono::NaiveDateTime;

use super::table::tables;

tables! {
    /// Accounts, with their password hashes and roles.
    users => UserRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            username: String,
            username_key: String,
            email: String,
            password_hash: String,
            role: String,
            created_at: NaiveDateTime,
            credentials_changed_at: NaiveDateTime,
            disabled_at: Option<NaiveDateTime>,
            last_seen_at: Option<NaiveDateTime>,
        },
    },
    /// Sign-in identities of an external provider linked to an account. Keyed for export by
    /// (user_id, issuer), unique too, which starts with a number.
    user_identities => IdentityRow {
        key: (user_id: i64, issuer: String),
        serial: false,
        columns: {
            issuer: String,
            subject: String,
            user_id: i64,
            email: Option<String>,
            created_at: NaiveDateTime,
        },
    },
    /// Tags, used or not.
    tags => TagRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            name: String,
            created_at: NaiveDateTime,
        },
    },
    /// GIFs (their blobs stay in the blob store).
    gifs => GifRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            share_id: String,
            title: String,
            description: String,
            uploader_id: i64,
            uploaded_at: NaiveDateTime,
            view_count: i64,
            content_type: String,
            content_size: i64,
            frame_count: i32,
            search_text: String,
            favourite_count: i64,
            sha256: Option<String>,
            phash: Option<i64>,
            phash_b0: Option<i32>,
            phash_b1: Option<i32>,
            phash_b2: Option<i32>,
            phash_b3: Option<i32>,
            share_count: i64,
            rating: String,
            made_from_id: Option<i64>,
            hidden_at: Option<NaiveDateTime>,
            hidden_reason: Option<String>,
            caption_text: Option<String>,
            caption_edited: bool,
            caption_read_at: Option<NaiveDateTime>,
            transparent: Option<bool>,
        },
    },
    /// One row per GIF and rendition kind: where its blob is and what it holds.
    gif_renditions => RenditionRow {
        key: (gif_id: i64, kind: String),
        serial: false,
        columns: {
            gif_id: i64,
            kind: String,
            blob_key: String,
            content_type: String,
            size: i64,
            width: i32,
            height: i32,
            frames: i32,
            duration_ms: Option<i32>,
            codec: Option<String>,
            preferred: bool,
        },
    },
    /// API keys by digest (the keys themselves were never stored).
    api_keys => ApiKeyRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            user_id: i64,
            name: String,
            prefix: String,
            digest: String,
            created_at: NaiveDateTime,
            last_used_at: Option<NaiveDateTime>,
        },
    },
    /// Views per GIF and day (what "featured" ranks by); `gifs.view_count` is their all-time sum
    /// plus the views counted before days were kept.
    gif_daily_views => DailyViewsRow {
        key: (gif_id: i64, day: NaiveDateTime),
        serial: false,
        columns: {
            gif_id: i64,
            day: NaiveDateTime,
            views: i64,
        },
    },
    /// Searches per term and day (trending terms).
    search_terms => SearchTermRow {
        key: (term: String, day: NaiveDateTime),
        serial: false,
        columns: {
            term: String,
            day: NaiveDateTime,
            searches: i64,
        },
    },
    /// Chat integrations (slash commands): platform, name and the signing secret or token, as
    /// the platform showed it.
    integrations => IntegrationRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            platform: String,
            name: String,
            secret: String,
            created_at: NaiveDateTime,
            secret_form: String,
            secret_hint: String,
            max_rating: String,
        },
    },
    /// The stored registration policy (one row, id 1; none until seeded or saved).
    registration_policy => RegistrationPolicyRow {
        key: (id: i64),
        serial: false,
        columns: {
            id: i64,
            mode: String,
            allowed_domains: String,
            members_may_invite: bool,
            updated_at: NaiveDateTime,
        },
    },
    /// Invitations by token digest (the tokens themselves were never stored), with their uses.
    invites => InviteRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            token_digest: String,
            max_uses: i32,
            uses: i32,
            role: String,
            created_by: i64,
            created_at: NaiveDateTime,
            expires_at: NaiveDateTime,
        },
    },
    /// Which GIF has which tag.
    gif_tags => GifTagRow {
        key: (gif_id: i64, tag_id: i64),
        serial: false,
        columns: {
            gif_id: i64,
            tag_id: i64,
        },
    },
    /// Each person's favourite GIFs (`gifs.favourite_count` counts them).
    favourites => FavouriteRow {
        key: (user_id: i64, gif_id: i64),
        serial: false,
        columns: {
            user_id: i64,
            gif_id: i64,
            created_at: NaiveDateTime,
        },
    },
    /// Named, ordered lists of GIFs a team curates; `share_id` is set while the public page is on.
    collections => CollectionRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            name: String,
            description: String,
            owner_id: i64,
            visibility: String,
            share_id: Option<String>,
            created_at: NaiveDateTime,
            updated_at: NaiveDateTime,
        },
    },
    /// The audit log (no foreign keys: events outlive what they name).
    audit_events => AuditEventRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            at: NaiveDateTime,
            actor_id: Option<i64>,
            actor_name: String,
            action: String,
            target: String,
            detail: String,
            address: Option<String>,
        },
    },
    /// Password reset links by token digest (the tokens were never stored), one per account.
    password_resets => PasswordResetRow {
        key: (user_id: i64),
        serial: false,
        columns: {
            user_id: i64,
            token_digest: String,
            expires_at: NaiveDateTime,
        },
    },
    /// The quota for everyone once an administrator set it (one row, id 1).
    quota_defaults => QuotaDefaultsRow {
        key: (id: i64),
        serial: false,
        columns: {
            id: i64,
            storage_bytes: Option<i64>,
            uploads_per_day: Option<i64>,
            updated_at: NaiveDateTime,
        },
    },
    /// Members' own quotas.
    member_quotas => MemberQuotaRow {
        key: (user_id: i64),
        serial: false,
        columns: {
            user_id: i64,
            storage_bytes: Option<i64>,
            uploads_per_day: Option<i64>,
        },
    },
    /// Members' reports of GIFs; `resolution` is null while a report is open.
    reports => ReportRow {
        key: (id: i64),
        serial: true,
        columns: {
            id: i64,
            gif_id: i64,
            reporter_id: i64,
            reason: String,
            note: String,
            created_at: NaiveDateTime,
            resolution: Option<String>,
            resolved_by: Option<i64>,
            resolved_at: Option<NaiveDateTime>,
        },
    },
    /// Which GIF is in which collection, at which position.
    collection_gifs => CollectionGifRow {
        key: (collection_id: i64, gif_id: i64),
        serial: false,
        columns: {
            collection_id: i64,
            gif_id: i64,
            position: i64,
            added_at: NaiveDateTime,
        },
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the compiler cannot check of an entry.
    #[test]
    fn entries_are_consistent() {
        for (i, table) in LIST.iter().enumerate() {
            assert_eq!(NAMES[i], table.name());
            assert!(!NAMES[..i].contains(&table.name()), "{} is listed twice", table.name());
            assert!(!table.serial() || table.columns().contains(&"id"), "{} is serial without an id", table.name());
        }
    }
}
