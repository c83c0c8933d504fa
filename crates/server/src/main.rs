//! `gifshelf`: serve (the default), healthcheck, worker, renditions backfill, text backfill, migrate, fsck, admin grant|revoke, migrate-storage, export, import,
//! import-folder, export-media, discord register, telegram set-webhook.

use std::process::ExitCode;

use std::sync::Arc;

use clap::Parser;
use gifshelf_auth::SystemClock;
use gifshelf_domain::ports::{Clock, UserRepository};
use gifshelf_domain::user::Role;
use gifshelf_server::{config::Settings, logging, Application};

mod cli;
use cli::{AdminAction, Cli, Command, DiscordAction, RenditionsAction, TelegramAction, TextAction};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let format = match logging::LogFormat::parse(std::env::var("GIFSHELF_LOG_FORMAT").ok().as_deref()) {
        Ok(format) => format,
        Err(err) => {
            eprintln!("gifshelf: {err}");
            return ExitCode::from(2);
        }
    };
    logging::init(format);
    let settings = match Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("gifshelf: {err}");
            return ExitCode::from(2);
        }
    };
    // The one clock every part of this process reads the time from.
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&settings, clock),
        Command::Migrate => migrate(&settings),
        Command::Backup { dir, media_only } => backup(&settings, &dir, media_only),
        Command::Restore { dir } => gifshelf_server::backup::restore(&settings, &dir)
            .map(|n| println!("restored {n} files into {}", settings.data_dir.display())),
        Command::Healthcheck => gifshelf_server::healthcheck::probe(&settings.bind, std::time::Duration::from_secs(5)),
        Command::Worker => worker(&settings, &clock),
        Command::Renditions { action: RenditionsAction::Backfill { wait } } => {
            backfill_renditions(&settings, wait, &clock)
        }
        Command::Text { action: TextAction::Backfill { wait } } => backfill_text(&settings, wait, &clock),
        Command::Admin { action } => admin(&settings, action),
        Command::Discord { action: DiscordAction::Register { application_id, bot_token, api_url } } => {
            call_platform(gifshelf_server::bots::discord_register(&api_url, &application_id, &bot_token))
        }
        Command::Telegram { action: TelegramAction::SetWebhook { bot_token, api_url } } => {
            telegram_set_webhook(&settings, &api_url, &bot_token)
        }
        Command::Fsck { dry_run } => fsck(&settings, dry_run, &clock),
        Command::MigrateStorage { from, to } => migrate_storage(&settings, &from, &to),
        Command::Export { to, database } => {
            export(database.as_deref().unwrap_or(&settings.database_url), &to, clock.now())
        }
        Command::Import { from, database } => import(database.as_deref().unwrap_or(&settings.database_url), &from),
        Command::ImportFolder { dir, user, tags_from_folders, dry_run } => import_folder(
            &settings,
            &clock,
            &user,
            gifshelf_server::folder_import::ImportOptions {
                dir,
                tags_from_folders,
                dry_run,
                max_bytes: settings.max_upload_mb * 1024 * 1024,
            },
        ),
        Command::ExportMedia { to } => export_media(&settings, &to, &clock),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gifshelf: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one call to a chat platform's API and prints what it did.
fn call_platform(call: impl std::future::Future<Output = Result<String, String>>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    println!("{}", runtime.block_on(call)?);
    Ok(())
}

fn telegram_set_webhook(settings: &Settings, api_url: &str, bot_token: &str) -> Result<(), String> {
    use secrecy::ExposeSecret;

    let public_url = settings.public_url.as_deref().ok_or(
        "set GIFSHELF_PUBLIC_URL to the server's public HTTPS address (Telegram calls it on port 443, 80, 88 or 8443)",
    )?;
    let secret = settings.chat_commands.telegram_webhook_secret.as_ref().ok_or(
        "set GIFSHELF_TELEGRAM_WEBHOOK_SECRET (8 to 200 of A-Z, a-z, 0-9, _ and -): Telegram sends it with each update",
    )?;
    let webhook = format!("{public_url}/api/chat/telegram");
    call_platform(gifshelf_server::bots::telegram_set_webhook(api_url, bot_token, &webhook, secret.expose_secret()))
}

fn backup(settings: &Settings, dir: &std::path::Path, media_only: bool) -> Result<(), String> {
    let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
    let summary = gifshelf_server::backup::backup(settings, &db, dir, media_only)?;
    println!("backup in {}: {} media files copied, {} already there", dir.display(), summary.copied, summary.kept);
    Ok(())
}

fn serve(settings: &Settings, clock: Arc<dyn Clock>) -> Result<(), String> {
    actix_web::rt::System::new().block_on(async {
        let app = Application::build_with_clock(settings, clock).map_err(|e| e.to_string())?;
        tracing::info!(
            url = %format!("http://{}", display_addr(&settings.bind, app.port())),
            database = %gifshelf_db::Database::describe(&settings.database_url),
            "gifshelf is listening"
        );
        app.run_until_stopped().await.map_err(|e| e.to_string())?;
        tracing::info!("stopped");
        Ok(())
    })
}

/// Until SIGINT or SIGTERM.
async fn stop_signal() {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(term) => term,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

fn worker(settings: &Settings, clock: &Arc<dyn Clock>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let library = gifshelf_server::library(settings, &db, clock).map_err(|e| e.to_string())?;
        let workers = gifshelf_server::workers::Workers::start(
            settings.job_workers.max(1),
            std::sync::Arc::new(db),
            library.runners(),
            settings.jobs,
            settings.job_poll,
            clock.clone(),
        );
        tracing::info!(database = %gifshelf_db::Database::describe(&settings.database_url), "gifshelf worker is running");
        stop_signal().await;
        workers.stop().await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// A one-line progress bar, redrawn in place on a terminal.
fn progress_bar(done: i64, total: i64, what: &str) -> String {
    const WIDTH: i64 = 30;
    let filled = if total > 0 { (done.min(total) * WIDTH) / total } else { WIDTH };
    let bar: String = (0..WIDTH).map(|i| if i < filled { '#' } else { '.' }).collect();
    format!("[{bar}] {done}/{total} {what}")
}

/// Runs job workers here until no `task` job is left pending, with a progress bar of the `waiting`
/// GIFs (`what` they are once done), then lists that task's jobs that failed for good.
async fn work_off(
    settings: &Settings,
    clock: &Arc<dyn Clock>,
    db: gifshelf_db::Database,
    runners: gifshelf_server::workers::Runners,
    task: &str,
    waiting: i64,
    what: &str,
) -> Result<(), String> {
    use gifshelf_domain::ports::JobQueue;
    use std::io::Write;
    let queue = Arc::new(db);
    let workers = gifshelf_server::workers::Workers::start(
        settings.job_workers.max(1),
        queue.clone(),
        runners,
        settings.jobs,
        std::time::Duration::from_millis(200),
        clock.clone(),
    );
    loop {
        let left = i64::try_from(queue.pending(task).await.map_err(|e| e.to_string())?.len()).unwrap_or(0);
        eprint!("\r{}", progress_bar(waiting - left.min(waiting), waiting, what));
        let _ = std::io::stderr().flush();
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    eprintln!();
    workers.stop().await;
    let failed = queue.failed(20).await.map_err(|e| e.to_string())?;
    for job in failed.iter().filter(|j| j.kind == task) {
        println!("  failed for good: {} {} after {} attempts: {}", job.kind, job.payload, job.attempts, job.last_error);
    }
    Ok(())
}

fn backfill_renditions(settings: &Settings, wait: bool, clock: &Arc<dyn Clock>) -> Result<(), String> {
    use std::io::Write;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let library = gifshelf_server::library(settings, &db, clock).map_err(|e| e.to_string())?;
        let report = library
            .renditions
            .backfill(|p| {
                eprint!("\r{}", progress_bar(p.scanned, p.total, "GIFs looked at"));
                let _ = std::io::stderr().flush();
            })
            .await
            .map_err(|e| e.to_string())?;
        eprintln!();
        println!(
            "{} GIFs looked at: {} queued for renditions, {} had a job queued already.",
            report.scanned, report.enqueued, report.already_queued
        );
        if !wait {
            if report.enqueued > 0 {
                println!("Running servers and `gifshelf worker` processes make them; `--wait` makes them here.");
            }
            return Ok(());
        }
        let runners = gifshelf_server::workers::Runners { maker: None, text: None, ..library.runners() };
        let waiting = report.enqueued + report.already_queued;
        let task = gifshelf_domain::job::Task::MAKE_RENDITIONS;
        work_off(settings, clock, db, runners, task, waiting, "GIFs with their renditions made").await?;
        println!("Done.");
        Ok(())
    })
}

fn backfill_text(settings: &Settings, wait: bool, clock: &Arc<dyn Clock>) -> Result<(), String> {
    use std::io::Write;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let library = gifshelf_server::library(settings, &db, clock).map_err(|e| e.to_string())?;
        let Some(text) = library.text.clone() else {
            return Err(
                "the text in GIFs cannot be read here: tesseract is off (GIFSHELF_TESSERACT=off) or missing (install tesseract-ocr and tesseract-ocr-eng)"
                    .into(),
            );
        };
        let report = text
            .backfill(|p| {
                eprint!("\r{}", progress_bar(p.scanned, p.total, "GIFs looked at"));
                let _ = std::io::stderr().flush();
            })
            .await
            .map_err(|e| e.to_string())?;
        eprintln!();
        println!(
            "{} GIFs without read text: {} queued for reading, {} had a job queued already.",
            report.scanned, report.enqueued, report.already_queued
        );
        if !wait {
            if report.enqueued > 0 {
                println!("Running servers and `gifshelf worker` processes read them; `--wait` reads them here.");
            }
            return Ok(());
        }
        let runners = gifshelf_server::workers::Runners { maker: None, ..library.runners() };
        let waiting = report.enqueued + report.already_queued;
        work_off(settings, clock, db, runners, gifshelf_domain::job::Task::READ_TEXT, waiting, "GIFs read").await?;
        println!("Done.");
        Ok(())
    })
}

fn display_addr(bind: &str, port: u16) -> String {
    let host = bind.rsplit_once(':').map_or(bind, |(host, _)| host);
    format!("{host}:{port}")
}

fn migrate(settings: &Settings) -> Result<(), String> {
    let db = gifshelf_db::Database::connect(&gifshelf_db::DbConfig::new(&settings.database_url))
        .map_err(|e| e.to_string())?;
    let applied = db.migrate().map_err(|e| e.to_string())?;
    if applied.is_empty() {
        println!("The database is up to date.");
    } else {
        println!("Applied {} migration(s): {}", applied.len(), applied.join(", "));
    }
    Ok(())
}

fn admin(settings: &Settings, action: AdminAction) -> Result<(), String> {
    let (name, role) = match action {
        AdminAction::Grant { name } => (name, Role::Admin),
        AdminAction::Revoke { name } => (name, Role::User),
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        match db.set_role(&name, role).await {
            Ok(user) => {
                println!(
                    "{} is now {}.",
                    user.username,
                    if role == Role::Admin { "an administrator" } else { "a regular user" }
                );
                Ok(())
            }
            Err(gifshelf_domain::RepoError::NotFound) => Err(format!("there is no user named {name:?}")),
            Err(err) => Err(err.to_string()),
        }
    })
}

fn fsck(settings: &Settings, dry_run: bool, clock: &Arc<dyn Clock>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let gifs = gifshelf_server::gif_service(settings, &db, clock).map_err(|e| e.to_string())?;
        let report = gifs.fsck(dry_run).await.map_err(|e| e.to_string())?;
        if !dry_run {
            let backfill = gifs.backfill_fingerprints().await.map_err(|e| e.to_string())?;
            if backfill.fingerprinted > 0 {
                println!("GIFs fingerprinted for duplicate detection: {}", backfill.fingerprinted);
            }
            for (id, twin) in &backfill.identical_to_another {
                println!("  GIF {} is byte for byte GIF {} (review it in /admin/duplicates)", id.0, twin.0);
            }
            for (id, why) in &backfill.failed {
                println!("  GIF {} could not be fingerprinted: {why}", id.0);
            }
        }
        let verb = if dry_run { "would remove" } else { "removed" };
        println!("{} blob(s) checked.", report.blobs);
        println!("Orphan blobs {verb}: {}", report.orphans_removed.len());
        for key in &report.orphans_removed {
            println!("  {key}");
        }
        if report.orphans_too_young > 0 {
            println!(
                "Orphan blobs kept (younger than 10 minutes, maybe an upload in progress): {}",
                report.orphans_too_young
            );
        }
        println!("Interrupted writes removed: {}", report.partial_writes_removed);
        if report.missing_blobs.is_empty() {
            println!("Every GIF has its files.");
            Ok(())
        } else {
            for key in &report.missing_blobs {
                println!("  missing: {key}");
            }
            Err(format!("{} file(s) referenced by GIFs are missing", report.missing_blobs.len()))
        }
    })
}

fn import_folder(
    settings: &Settings,
    clock: &Arc<dyn Clock>,
    user: &str,
    options: gifshelf_server::folder_import::ImportOptions,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let account = match db.find_by_username(user).await {
            Ok(account) => account,
            Err(gifshelf_domain::RepoError::NotFound) => return Err(format!("there is no user named {user:?}")),
            Err(err) => return Err(err.to_string()),
        };
        let owner = gifshelf_app::auth::Actor::session(account.id, account.username, account.role);
        let gifs = gifshelf_server::gif_service(settings, &db, clock).map_err(|e| e.to_string())?;
        let started = std::time::Instant::now();
        let summary = gifshelf_server::folder_import::import_folder(gifs, &owner, &options).await?;
        let verb = if options.dry_run { "Would import" } else { "Imported" };
        println!(
            "{verb} {} GIF(s) in {:.1} s; {} already in the library, {} refused, {} not images.",
            summary.imported,
            started.elapsed().as_secs_f64(),
            summary.duplicates,
            summary.refused.len(),
            summary.not_images
        );
        if summary.look_alikes > 0 {
            println!("{} imported GIF(s) look like GIFs already there: see /admin/duplicates.", summary.look_alikes);
        }
        for (path, reason) in &summary.refused {
            println!("  refused {}: {reason}", path.display());
        }
        Ok(())
    })
}

fn export_media(settings: &Settings, to: &std::path::Path, clock: &Arc<dyn Clock>) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let gifs = gifshelf_server::gif_service(settings, &db, clock).map_err(|e| e.to_string())?;
        let written = gifshelf_server::media_export::export_media(gifs, to, clock.now()).await?;
        println!("Wrote {} ({}).", to.display(), human_bytes(written));
        Ok(())
    })
}

fn migrate_storage(settings: &Settings, from: &str, to: &str) -> Result<(), String> {
    use std::io::{IsTerminal, Write};

    if from.trim_end_matches('/') == to.trim_end_matches('/') {
        return Err("--from and --to name the same store".into());
    }
    let options = gifshelf_storage::StorageOptions { s3: settings.s3.clone() };
    let source = gifshelf_storage::open(from, &options).map_err(|e| format!("--from: {e}"))?;
    let target = gifshelf_storage::open(to, &options).map_err(|e| format!("--to: {e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let terminal = std::io::stderr().is_terminal();
    let report = runtime.block_on(gifshelf_storage::migrate(&*source, &*target, |p| {
        let line = format!(
            "{}/{} done: copied {} ({}), {} already there, {} failed",
            p.done,
            p.total,
            p.copied,
            human_bytes(p.bytes_copied),
            p.skipped,
            p.failed
        );
        // A line that updates in place on a terminal; every 100 blobs in a log.
        if terminal {
            eprint!("\r{line}");
            let _ = std::io::stderr().flush();
        } else if (p.done > 0 && p.done % 100 == 0) || p.done == p.total {
            eprintln!("{line}");
        }
    }));
    if terminal {
        eprintln!();
    }
    let report = report.map_err(|e| format!("cannot list {from}: {e}"))?;
    let p = &report.progress;
    println!(
        "{} blob(s) in {from}: {} copied ({}), {} already at {to}, {} failed.",
        p.total,
        p.copied,
        human_bytes(p.bytes_copied),
        p.skipped,
        p.failed
    );
    if report.failures.is_empty() {
        println!("Every blob is at {to} and verified.");
        Ok(())
    } else {
        for (key, reason) in &report.failures {
            println!("  failed: {key}: {reason}");
        }
        Err(format!("{} blob(s) were not copied; run the same command again to retry them", report.failures.len()))
    }
}

/// Which database, for messages: the SQLite file, or just "PostgreSQL" (its URL may hold a password).
fn database_name(url: &str, db: &gifshelf_db::Database) -> String {
    match db.backend() {
        gifshelf_db::Backend::Sqlite => gifshelf_db::Database::describe(url),
        gifshelf_db::Backend::Postgres => "PostgreSQL".to_owned(),
    }
}

/// Prints rows as they stream: a line that updates in place on a terminal, one line per table in a log.
fn transfer_progress(verb: &'static str) -> impl FnMut(gifshelf_db::transfer::Progress<'_>) {
    use std::io::{IsTerminal, Write};

    let terminal = std::io::stderr().is_terminal();
    move |p| {
        if p.done {
            eprintln!("{}{}: {} row(s) {verb}", if terminal { "\r\x1b[K" } else { "" }, p.table, p.rows);
        } else if terminal {
            eprint!("\r\x1b[K{}: {} row(s) {verb}…", p.table, p.rows);
            let _ = std::io::stderr().flush();
        }
    }
}

fn counts_line(summary: &gifshelf_db::transfer::Summary) -> String {
    summary.counts.iter().map(|(table, n)| format!("{n} {table}")).collect::<Vec<_>>().join(", ")
}

fn export(url: &str, to: &std::path::Path, exported_at: chrono::NaiveDateTime) -> Result<(), String> {
    use std::io::Write;

    let db = gifshelf_db::Database::connect(&gifshelf_db::DbConfig::new(url)).map_err(|e| e.to_string())?;
    db.migrate().map_err(|e| e.to_string())?;
    let source = database_name(url, &db);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600); // password hashes and emails
    let file = options.open(to).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            format!("{} already exists: remove it or choose another file", to.display())
        }
        _ => format!("cannot create {}: {e}", to.display()),
    })?;
    eprintln!("Exporting {source} to {}…", to.display());
    let mut out = std::io::BufWriter::new(file);
    let result = gifshelf_db::transfer::export(&db, &mut out, exported_at, &mut transfer_progress("exported"))
        .map_err(|e| e.to_string())
        .and_then(|summary| {
            out.flush().map_err(|e| e.to_string())?;
            out.get_ref().sync_all().map_err(|e| e.to_string())?;
            Ok(summary)
        });
    match result {
        Ok(summary) => {
            eprintln!("Exported {} (schema {}) to {}.", counts_line(&summary), summary.schema, to.display());
            eprintln!(
                "Media files are not in the export: they stay in the blob store (gifshelf migrate-storage copies them)."
            );
            Ok(())
        }
        Err(err) => {
            drop(out);
            let _ = std::fs::remove_file(to);
            Err(format!("export failed, {} removed: {err}", to.display()))
        }
    }
}

fn import(url: &str, from: &std::path::Path) -> Result<(), String> {
    let file = std::fs::File::open(from).map_err(|e| format!("cannot open {}: {e}", from.display()))?;
    let db = gifshelf_db::Database::connect(&gifshelf_db::DbConfig::new(url)).map_err(|e| e.to_string())?;
    let target = database_name(url, &db);
    eprintln!("Importing {} into {target}…", from.display());
    let mut input = std::io::BufReader::new(file);
    let summary = gifshelf_db::transfer::import(&db, &mut input, &mut transfer_progress("imported"))
        .map_err(|e| format!("import failed, nothing was imported: {e}"))?;
    eprintln!(
        "Imported {} into {target} (schema {}); counts and checksum verified.",
        counts_line(&summary),
        summary.schema
    );
    eprintln!(
        "Media files are not in the export: if the blob store changes too, copy them with gifshelf migrate-storage."
    );
    Ok(())
}

/// `1.2 MB`, in powers of 1000.
fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
