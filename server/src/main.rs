//! The `qiguan-server` program.

use qiguan_server::Config;

const USAGE: &str =
    "usage: qiguan-server [--listen ADDR:PORT] [--db FILE|URL] [--cache-games N] [--ip-rate N]
                     [--token-rate N] [--pair-rate N]

  --listen       where to listen (default 127.0.0.1:8080; port 0 picks a free one)
  --db           the store: a SQLite file (default qiguan-server.sqlite), or a PostgreSQL
                 URL (postgres://user@host/dbname) that several servers may share;
                 DATABASE_URL is used when --db is not given
  --cache-games  games kept in memory, least recently used out first (default 4096)
  --ip-rate      requests per second per client address (default 50; 0 = no limit)
  --token-rate   requests per second per seat or device token (default 10; 0 = no limit)
  --pair-rate    device pairing attempts, and uploads of games to share, per minute per
                 client address (default 10; 0 = no limit)";

fn parse(args: Vec<String>) -> Result<Config, String> {
    let mut config = Config::default();
    if let Ok(url) = std::env::var("DATABASE_URL")
        && !url.is_empty()
    {
        config.db = url;
    }
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--listen" => {
                let v = value("--listen")?;
                config.listen = v
                    .parse()
                    .map_err(|_| format!("--listen: not an address: {v}"))?;
            }
            "--db" => config.db = value("--db")?,
            "--cache-games" => {
                config.cache.games = value("--cache-games")?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--cache-games: not a positive number")?
            }
            "--ip-rate" => {
                config.ip_rate = value("--ip-rate")?
                    .parse()
                    .map_err(|_| "--ip-rate: not a number")?
            }
            "--token-rate" => {
                config.token_rate = value("--token-rate")?
                    .parse()
                    .map_err(|_| "--token-rate: not a number")?
            }
            "--pair-rate" => {
                config.pair_rate = value("--pair-rate")?
                    .parse()
                    .map_err(|_| "--pair-rate: not a number")?
            }
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other:?}\n\n{USAGE}")),
        }
    }
    Ok(config)
}

fn main() {
    let config = match parse(std::env::args().skip(1).collect()) {
        Ok(c) => c,
        Err(text) => {
            eprintln!("{text}");
            std::process::exit(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("qiguan-server: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = runtime.block_on(qiguan_server::serve(config)) {
        eprintln!("qiguan-server: {e}");
        std::process::exit(1);
    }
}
