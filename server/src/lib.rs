//! qiguan-server: correspondence games over HTTP. It knows no game: it holds core's runtime
//! game type and every rule comes from `qiguan-core`. Every response passes through the
//! requesting seat's view; the full state is never sent.

pub mod api;
pub mod auth;
pub mod error;
pub mod games;
pub mod store;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

pub use api::{AppState, Limits, router};
pub use games::{Clock, Games, system_clock};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (default 127.0.0.1:8080; port 0 picks a free port).
    pub listen: SocketAddr,
    /// The SQLite file (default `qiguan-server.sqlite` in the working directory).
    pub db: PathBuf,
    /// Requests per second per client address (0: no limit).
    pub ip_rate: f64,
    /// Requests per second per seat token (0: no limit).
    pub token_rate: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("qiguan-server.sqlite"),
            ip_rate: 50.0,
            token_rate: 10.0,
        }
    }
}

/// Opens the database, loads every game and returns the router's state.
pub fn open(config: &Config, clock: Clock) -> Result<AppState, String> {
    let conn = store::open(&config.db)?;
    let (stored, invites) = store::load(&conn).map_err(|e| e.to_string())?;
    let writer = store::start_writer(conn);
    let games = Games::load(stored, invites, writer, clock)?;
    Ok(AppState {
        games: Arc::new(games),
        limits: Arc::new(Limits::new(config.ip_rate, config.token_rate)),
    })
}

/// Serves until the process is stopped. Prints `listening on ADDR` once ready.
pub async fn serve(config: Config) -> Result<(), String> {
    let state = open(&config, system_clock())?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    println!("listening on {addr}");
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}
