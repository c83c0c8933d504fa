//! `gifshelf`: serve (the default), migrate, admin grant|revoke.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gifshelf_domain::ports::UserRepository;
use gifshelf_domain::user::Role;
use gifshelf_server::{config::Settings, Application};

#[derive(Debug, Parser)]
#[command(name = "gifshelf", version, about = "A self-hostable GIF library")]
struct Cli {
    /// A TOML configuration file; GIFSHELF_* environment variables override it.
    #[arg(long, global = true, env = "GIFSHELF_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the web server (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Check that every GIF row has its files and remove files no row refers to.
    Fsck {
        /// Only report; change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Change who is an administrator.
    Admin {
        #[command(subcommand)]
        action: AdminAction,
    },
}

#[derive(Debug, Subcommand)]
enum AdminAction {
    /// Make NAME an administrator.
    Grant { name: String },
    /// Make NAME a regular user.
    Revoke { name: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("GIFSHELF_LOG")
                .or_else(|_| tracing_subscriber::EnvFilter::try_from_default_env())
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_target(false)
        .init();
    let settings = match Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("gifshelf: {err}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(&settings),
        Command::Migrate => migrate(&settings),
        Command::Admin { action } => admin(&settings, action),
        Command::Fsck { dry_run } => fsck(&settings, dry_run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gifshelf: {message}");
            ExitCode::FAILURE
        }
    }
}

fn serve(settings: &Settings) -> Result<(), String> {
    actix_web::rt::System::new().block_on(async {
        let app = Application::build(settings).map_err(|e| e.to_string())?;
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

fn fsck(settings: &Settings, dry_run: bool) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let db = gifshelf_server::open_database(settings).map_err(|e| e.to_string())?;
        let gifs = gifshelf_server::gif_service(settings, &db).map_err(|e| e.to_string())?;
        let report = gifs.fsck(dry_run).await.map_err(|e| e.to_string())?;
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
