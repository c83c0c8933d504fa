// The tables of migrations/{sqlite,postgres}; the two backends share this one description.

diesel::table! {
    users (id) {
        id -> BigInt,
        username -> Text,
        username_key -> Text,
        email -> Text,
        password_hash -> Text,
        role -> Text,
        created_at -> Timestamp,
        credentials_changed_at -> Timestamp,
        disabled_at -> Nullable<Timestamp>,
        last_seen_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    gifs (id) {
        id -> BigInt,
        share_id -> Text,
        title -> Text,
        description -> Text,
        uploader_id -> BigInt,
        uploaded_at -> Timestamp,
        view_count -> BigInt,
        content_type -> Text,
        content_size -> BigInt,
        frame_count -> Integer,
        search_text -> Text,
        favourite_count -> BigInt,
        sha256 -> Nullable<Text>,
        phash -> Nullable<BigInt>,
        phash_b0 -> Nullable<Integer>,
        phash_b1 -> Nullable<Integer>,
        phash_b2 -> Nullable<Integer>,
        phash_b3 -> Nullable<Integer>,
        share_count -> BigInt,
        rating -> Text,
        made_from_id -> Nullable<BigInt>,
        hidden_at -> Nullable<Timestamp>,
        hidden_reason -> Nullable<Text>,
        caption_text -> Nullable<Text>,
        caption_edited -> Bool,
        caption_read_at -> Nullable<Timestamp>,
        transparent -> Nullable<Bool>,
    }
}

diesel::table! {
    gif_renditions (gif_id, kind) {
        gif_id -> BigInt,
        kind -> Text,
        blob_key -> Text,
        content_type -> Text,
        size -> BigInt,
        width -> Integer,
        height -> Integer,
        frames -> Integer,
        duration_ms -> Nullable<Integer>,
        codec -> Nullable<Text>,
        preferred -> Bool,
    }
}

diesel::table! {
    api_keys (id) {
        id -> BigInt,
        user_id -> BigInt,
        name -> Text,
        prefix -> Text,
        digest -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(api_keys -> users (user_id));

diesel::table! {
    integrations (id) {
        id -> BigInt,
        platform -> Text,
        name -> Text,
        secret -> Text,
        created_at -> Timestamp,
        secret_form -> Text,
        secret_hint -> Text,
        max_rating -> Text,
    }
}

diesel::table! {
    jobs (id) {
        id -> BigInt,
        kind -> Text,
        payload -> Text,
        state -> Text,
        attempts -> Integer,
        run_after -> Timestamp,
        locked_by -> Nullable<Text>,
        locked_until -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        dedup_key -> Text,
    }
}

diesel::table! {
    tags (id) {
        id -> BigInt,
        name -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    gif_tags (gif_id, tag_id) {
        gif_id -> BigInt,
        tag_id -> BigInt,
    }
}

diesel::joinable!(gifs -> users (uploader_id));
diesel::joinable!(gif_tags -> gifs (gif_id));
diesel::joinable!(gif_renditions -> gifs (gif_id));
diesel::joinable!(gif_tags -> tags (tag_id));

diesel::table! {
    user_identities (issuer, subject) {
        issuer -> Text,
        subject -> Text,
        user_id -> BigInt,
        email -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::joinable!(user_identities -> users (user_id));
diesel::table! {
    collections (id) {
        id -> BigInt,
        name -> Text,
        description -> Text,
        owner_id -> BigInt,
        visibility -> Text,
        share_id -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    collection_gifs (collection_id, gif_id) {
        collection_id -> BigInt,
        gif_id -> BigInt,
        position -> BigInt,
        added_at -> Timestamp,
    }
}

diesel::joinable!(collections -> users (owner_id));
diesel::joinable!(collection_gifs -> collections (collection_id));
diesel::joinable!(collection_gifs -> gifs (gif_id));
diesel::table! {
    favourites (user_id, gif_id) {
        user_id -> BigInt,
        gif_id -> BigInt,
        created_at -> Timestamp,
    }
}

diesel::joinable!(favourites -> gifs (gif_id));
diesel::joinable!(favourites -> users (user_id));
diesel::table! {
    gif_daily_views (gif_id, day) {
        gif_id -> BigInt,
        day -> Timestamp,
        views -> BigInt,
    }
}

diesel::joinable!(gif_daily_views -> gifs (gif_id));

// Who viewed a GIF's share page on a day (a digest, never an address; migration 000017).
diesel::table! {
    gif_viewers (gif_id, day, viewer) {
        gif_id -> BigInt,
        day -> Timestamp,
        viewer -> Text,
    }
}

diesel::joinable!(gif_viewers -> gifs (gif_id));

diesel::table! {
    search_terms (term, day) {
        term -> Text,
        day -> Timestamp,
        searches -> BigInt,
    }
}

// The number of GIFs, one row kept exact by triggers on `gifs` (migration 000013).
diesel::table! {
    gif_count (id) {
        id -> SmallInt,
        gifs -> BigInt,
    }
}

diesel::table! {
    registration_policy (id) {
        id -> BigInt,
        mode -> Text,
        allowed_domains -> Text,
        members_may_invite -> Bool,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    invites (id) {
        id -> BigInt,
        token_digest -> Text,
        max_uses -> Integer,
        uses -> Integer,
        role -> Text,
        created_by -> BigInt,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::joinable!(invites -> users (created_by));

diesel::table! {
    makes (id) {
        id -> BigInt,
        owner_id -> BigInt,
        state -> Text,
        progress -> Float,
        source_key -> Text,
        source_gif_id -> Nullable<BigInt>,
        recipe -> Text,
        gif_data -> Text,
        gif_id -> Nullable<BigInt>,
        error_code -> Nullable<Text>,
        error -> Nullable<Text>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    reports (id) {
        id -> BigInt,
        gif_id -> BigInt,
        reporter_id -> BigInt,
        reason -> Text,
        note -> Text,
        created_at -> Timestamp,
        resolution -> Nullable<Text>,
        resolved_by -> Nullable<BigInt>,
        resolved_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(reports -> gifs (gif_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    gifs,
    gif_renditions,
    tags,
    gif_tags,
    user_identities,
    collections,
    collection_gifs,
    favourites,
    jobs,
    api_keys,
    gif_daily_views,
    gif_viewers,
    search_terms,
    integrations,
    gif_count,
    registration_policy,
    invites,
    makes,
    reports
);

diesel::table! {
    audit_events (id) {
        id -> BigInt,
        at -> Timestamp,
        actor_id -> Nullable<BigInt>,
        actor_name -> Text,
        action -> Text,
        target -> Text,
        detail -> Text,
        address -> Nullable<Text>,
    }
}

diesel::table! {
    shared_counters (key) {
        key -> Text,
        count -> BigInt,
        began -> Timestamp,
        last -> Timestamp,
    }
}

// Reset links and quotas (migration 000023).
diesel::table! {
    password_resets (user_id) {
        user_id -> BigInt,
        token_digest -> Text,
        expires_at -> Timestamp,
    }
}
diesel::table! {
    quota_defaults (id) {
        id -> BigInt,
        storage_bytes -> Nullable<BigInt>,
        uploads_per_day -> Nullable<BigInt>,
        updated_at -> Timestamp,
    }
}
diesel::table! {
    member_quotas (user_id) {
        user_id -> BigInt,
        storage_bytes -> Nullable<BigInt>,
        uploads_per_day -> Nullable<BigInt>,
    }
}
