//! The command line of `gifshelf`: its subcommands and their arguments.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "gifshelf", version, about = "A self-hostable GIF library")]
pub(crate) struct Cli {
    /// A TOML configuration file; GIFSHELF_* environment variables override it.
    #[arg(long, global = true, env = "GIFSHELF_CONFIG")]
    pub(crate) config: Option<PathBuf>,
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the web server (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Copy the data to DIR while the server runs: a consistent SQLite snapshot, the media
    /// (incrementally: files already in DIR with the same SHA-256 are kept), the generated
    /// signing secret, and manifest.json with every file's SHA-256. On PostgreSQL use pg_dump and
    /// --media-only; S3 media are kept by the bucket's versioning.
    Backup {
        dir: PathBuf,
        /// Only the media (beside pg_dump on PostgreSQL).
        #[arg(long)]
        media_only: bool,
    },
    /// Restore a backup made by `gifshelf backup` into an empty GIFSHELF_DATA_DIR, checking
    /// every file's SHA-256 first: a damaged backup is refused, naming the file, and nothing is
    /// written.
    Restore { dir: PathBuf },
    /// Ask the server at GIFSHELF_BIND whether it is ready (`GET /api/health/ready`): exit 0 when
    /// it answers 200, 1 otherwise. For container health checks (needs no curl).
    Healthcheck,
    /// Check that every GIF row has its files and remove files no row refers to; fingerprint GIFs
    /// stored before duplicates were detected (their SHA-256 and perceptual hash).
    Fsck {
        /// Only report; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Run only job workers (GIFSHELF_WORKERS of them, at least one): the renditions of new GIFs
    /// are made here instead of by the web servers.
    Worker,
    /// Video and chat-size renditions.
    Renditions {
        #[command(subcommand)]
        action: RenditionsAction,
    },
    /// The text in GIFs (their captions), read with tesseract.
    Text {
        #[command(subcommand)]
        action: TextAction,
    },
    /// Connect a Discord application: register its /gif command.
    Discord {
        #[command(subcommand)]
        action: DiscordAction,
    },
    /// Connect a Telegram bot: point its webhook at this server.
    Telegram {
        #[command(subcommand)]
        action: TelegramAction,
    },
    /// Change who is an administrator.
    Admin {
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Copy every media file from one store to another, verifying each copy (SHA-256).
    ///
    /// Resumable: files already at the target with the same size and hash are skipped. Both stores
    /// use the configured S3 settings (AWS_*, GIFSHELF_S3_*). Point GIFSHELF_STORAGE_URL at the
    /// target afterwards.
    MigrateStorage {
        /// The store to copy from: file:///path/to/folder or s3://bucket/prefix.
        #[arg(long)]
        from: String,
        /// The store to copy to: file:///path/to/folder or s3://bucket/prefix.
        #[arg(long)]
        to: String,
    },
    /// Write the whole database to a file, to move it to another database with `gifshelf import`
    /// (SQLite to PostgreSQL or back).
    ///
    /// The file (JSON Lines) holds every account with its password hash, third-party sign-in
    /// links, GIF records, tags and links, read from one consistent snapshot: keep it private.
    /// Media files are not in it: they stay in the blob store (`gifshelf migrate-storage` copies
    /// them to another store). Stop the server first, so that nothing changes after the export.
    Export {
        /// The file to write; it must not exist yet.
        #[arg(long, value_name = "FILE")]
        to: PathBuf,
        /// The database to read instead of the configured one (GIFSHELF_DATABASE_URL); prefer the
        /// variable when the URL holds a password.
        #[arg(long, value_name = "URL")]
        database: Option<String>,
    },
    /// Fill a new, empty database from a file written by `gifshelf export`.
    ///
    /// Runs the migrations, refuses a database that already holds rows, and inserts everything in
    /// one transaction: a truncated or damaged file leaves the database empty. Ids are kept (share
    /// links and media keys use them). Media files are not in the file: `gifshelf migrate-storage`.
    Import {
        /// The file `gifshelf export` wrote.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The database to fill instead of the configured one (GIFSHELF_DATABASE_URL); prefer the
        /// variable when the URL holds a password.
        #[arg(long, value_name = "URL")]
        database: Option<String>,
    },
    /// Upload every image below DIR (GIF, PNG, JPEG, WebP, recognised by content) as USER.
    ///
    /// Titles come from file names. Files already in the library (byte for byte) are skipped and
    /// counted, so an interrupted import is resumed by running it again; refused files are listed
    /// with the reason.
    ImportFolder {
        /// The folder to import (sub-folders too).
        dir: PathBuf,
        /// The account the GIFs belong to.
        #[arg(long, value_name = "NAME")]
        user: String,
        /// Tag each GIF with the names of the folders between DIR and the file.
        #[arg(long)]
        tags_from_folders: bool,
        /// Check and count every file; store nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Write every original of the library and a manifest.json (titles, descriptions, tags,
    /// dates, file names) to a ZIP file.
    ExportMedia {
        /// The file to write; it must not exist yet.
        #[arg(long, value_name = "FILE.zip")]
        to: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum RenditionsAction {
    /// Queue the making of every file kind a GIF is missing (GIFs stored before a kind existed,
    /// or whose job was lost), with a progress bar.
    Backfill {
        /// Also make them here, with GIFSHELF_WORKERS workers (at least one), and wait until the
        /// queue has none of them left.
        #[arg(long)]
        wait: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum TextAction {
    /// Queue the reading of the text in every GIF whose text was neither read nor edited (GIFs
    /// stored before text was read, or while tesseract was missing), with a progress bar. An
    /// edited text is never replaced.
    Backfill {
        /// Also read them here, with GIFSHELF_WORKERS workers (at least one), and wait until the
        /// queue has none of them left.
        #[arg(long)]
        wait: bool,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum DiscordAction {
    /// Register (or update) the application's /gif command, its `query` option with autocomplete.
    Register {
        /// The application's id (Developer Portal, General Information).
        #[arg(long, value_name = "ID")]
        application_id: String,
        /// The application's bot token (Developer Portal, Bot).
        #[arg(long, env = "GIFSHELF_DISCORD_BOT_TOKEN", hide_env_values = true, value_name = "TOKEN")]
        bot_token: String,
        /// Discord's API.
        #[arg(long, env = "GIFSHELF_DISCORD_API_URL", default_value = gifshelf_server::bots::DISCORD_API_URL)]
        api_url: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum TelegramAction {
    /// Send Telegram's updates to GIFSHELF_PUBLIC_URL/api/chat/telegram, with
    /// GIFSHELF_TELEGRAM_WEBHOOK_SECRET as the secret token they carry.
    SetWebhook {
        /// The bot's token (from BotFather).
        #[arg(long, env = "GIFSHELF_TELEGRAM_BOT_TOKEN", hide_env_values = true, value_name = "TOKEN")]
        bot_token: String,
        /// Telegram's Bot API.
        #[arg(long, env = "GIFSHELF_TELEGRAM_API_URL", default_value = gifshelf_server::bots::TELEGRAM_API_URL)]
        api_url: String,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum AdminAction {
    /// Make NAME an administrator.
    Grant { name: String },
    /// Make NAME a regular user.
    Revoke { name: String },
}
