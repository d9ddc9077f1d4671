//! qiguan-server: correspondence games over HTTP. It knows no game: it holds core's runtime
//! game type and every rule comes from `qiguan-core`. Every response passes through the
//! requesting seat's view; the full state is never sent.

pub mod api;
pub mod auth;
pub mod error;
pub mod games;
pub mod library;
pub mod page;
pub mod shares;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;

pub use api::{AppState, Limits, router};
pub use games::{CacheSize, Clock, Games, system_clock};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (default 127.0.0.1:8080; port 0 picks a free port).
    pub listen: SocketAddr,
    /// The store: a SQLite file (default `qiguan-server.sqlite` in the working directory), or
    /// a `postgres://` URL for a PostgreSQL database that several servers may share.
    pub db: String,
    /// How many games and tokens to keep in memory.
    pub cache: CacheSize,
    /// Requests per second per client address (0: no limit).
    pub ip_rate: f64,
    /// Requests per second per seat token (0: no limit).
    pub token_rate: f64,
    /// Pairing attempts per minute per client address (0: no limit).
    pub pair_rate: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: "qiguan-server.sqlite".into(),
            cache: CacheSize::default(),
            ip_rate: 50.0,
            token_rate: 10.0,
            pair_rate: 10.0,
        }
    }
}

/// Opens (migrating) the store and returns the router's state. No game is read until a
/// request needs it. Call it on a Tokio runtime: a shared store's listener runs on it.
pub async fn open(config: &Config, clock: Clock) -> Result<AppState, String> {
    let store = store::open(&config.db).await?;
    let games = Games::new(store.clone(), config.cache, clock.clone());
    Ok(AppState {
        shares: Arc::new(shares::Shares::new(games.clone())),
        games,
        libraries: Arc::new(library::Libraries::new(store, clock)),
        limits: Arc::new(
            Limits::new(config.ip_rate, config.token_rate).with_pairing(config.pair_rate),
        ),
    })
}

/// Serves until the process is stopped. Prints `listening on ADDR` once ready.
pub async fn serve(config: Config) -> Result<(), String> {
    let state = open(&config, system_clock()).await?;
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
