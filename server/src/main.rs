//! The `qiguan-server` program.

use qiguan_server::Config;

const USAGE: &str =
    "usage: qiguan-server [--listen ADDR:PORT] [--db FILE] [--ip-rate N] [--token-rate N]

  --listen      where to listen (default 127.0.0.1:8080; port 0 picks a free one)
  --db          the SQLite file (default qiguan-server.sqlite)
  --ip-rate     requests per second per client address (default 50; 0 = no limit)
  --token-rate  requests per second per seat token (default 10; 0 = no limit)";

fn parse(args: Vec<String>) -> Result<Config, String> {
    let mut config = Config::default();
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
            "--db" => config.db = value("--db")?.into(),
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
