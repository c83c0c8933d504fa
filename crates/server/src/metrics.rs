//! The `/metrics` endpoint's wiring: who may read it, and the gauges read from the database when
//! it is scraped (cheap: one count query and the pool's own state).

use std::net::IpAddr;
use std::sync::Arc;

use gifshelf_db::Database;
use gifshelf_domain::job::{JobCounts, KindCounts};
use gifshelf_domain::ports::JobQueue;
use gifshelf_http::metrics::MetricsEndpoint;
use secrecy::ExposeSecret;

use crate::wiring::StartupError;
use crate::Settings;

/// # Errors
/// When another metrics recorder was installed in this process.
pub(crate) fn endpoint(settings: &Settings, db: &Database) -> Result<MetricsEndpoint, StartupError> {
    let handle = gifshelf_http::metrics::prometheus_handle().map_err(StartupError::Other)?;
    let allow: Arc<dyn Fn(IpAddr) -> bool + Send + Sync> = match settings.metrics_allow.clone() {
        Some(list) => Arc::new(move |ip| list.iter().any(|cidr| cidr.contains(ip))),
        None => Arc::new(|ip: IpAddr| ip.is_loopback()),
    };
    let db = Arc::new(db.clone());
    Ok(MetricsEndpoint {
        handle,
        allow,
        token: settings.metrics_token.as_ref().map(|t| t.expose_secret().to_owned()),
        refresh: Arc::new(move || {
            let db = db.clone();
            Box::pin(async move { refresh(&db).await })
        }),
    })
}

/// The gauges of this scrape: jobs by state, by kind and state with the age of the oldest waiting
/// one, and the database pool.
#[allow(clippy::cast_precision_loss)] // counts far below 2^52
async fn refresh(db: &Database) {
    match db.counts().await {
        Ok(counts) => {
            metrics::gauge!("gifshelf_jobs", "state" => "queued").set(counts.queued as f64);
            metrics::gauge!("gifshelf_jobs", "state" => "running").set(counts.running as f64);
            metrics::gauge!("gifshelf_jobs", "state" => "failed").set(counts.failed as f64);
        }
        Err(e) => {
            metrics::counter!("gifshelf_db_errors_total").increment(1);
            tracing::warn!(error = %e, "metrics: cannot count the jobs");
        }
    }
    job_kinds(db).await;
    let (in_use, idle) = db.pool_state();
    metrics::gauge!("gifshelf_db_pool_connections", "state" => "in_use").set(f64::from(in_use));
    metrics::gauge!("gifshelf_db_pool_connections", "state" => "idle").set(f64::from(idle));
}

/// Jobs by kind and state, and how long the oldest waiting one of each kind has waited. A kind whose
/// jobs are all done reads zero, not its last figures.
#[allow(clippy::cast_precision_loss)] // counts far below 2^52
async fn job_kinds(db: &Database) {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut kinds = match db.counts_by_kind().await {
        Ok(kinds) => kinds,
        Err(e) => {
            metrics::counter!("gifshelf_db_errors_total").increment(1);
            tracing::warn!(error = %e, "metrics: cannot count the jobs by kind");
            return;
        }
    };
    let mut seen = SEEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for name in seen.iter() {
        if !kinds.iter().any(|k| &k.kind == name) {
            kinds.push(KindCounts { kind: name.clone(), counts: JobCounts::default(), oldest_queued: None });
        }
    }
    let now = chrono::Utc::now().naive_utc();
    for KindCounts { kind, counts, oldest_queued } in kinds {
        if !seen.contains(&kind) {
            seen.push(kind.clone());
        }
        for (state, n) in [("queued", counts.queued), ("running", counts.running), ("failed", counts.failed)] {
            metrics::gauge!("gifshelf_jobs_by_kind", "kind" => kind.clone(), "state" => state).set(n as f64);
        }
        let age = oldest_queued.map_or(0.0, |t| (now - t).num_milliseconds().max(0) as f64 / 1000.0);
        metrics::gauge!("gifshelf_job_oldest_queued_seconds", "kind" => kind).set(age);
    }
}
