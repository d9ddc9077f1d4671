//! A store for one test: a temporary SQLite file, or, when `QIGUAN_TEST_DB=postgres` is set,
//! a database of its own on the PostgreSQL server that `QIGUAN_TEST_POSTGRES` names (default
//! `postgres://postgres:postgres@127.0.0.1:5432/postgres`), dropped afterwards. CI runs the
//! server's tests and the end-to-end tests once with each.

#![allow(dead_code)] // each test crate that includes this uses its own part

use std::sync::atomic::{AtomicU32, Ordering};

/// The PostgreSQL server the tests use (a maintenance database on it).
pub fn admin_url() -> String {
    std::env::var("QIGUAN_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "postgres://postgres:postgres@127.0.0.1:5432/postgres".into())
}

/// Whether this run's stores are PostgreSQL databases.
pub fn postgres_wanted() -> bool {
    std::env::var("QIGUAN_TEST_DB").is_ok_and(|v| v == "postgres")
}

/// A store for one test; dropped with it.
#[derive(Debug)]
pub struct TestDb {
    /// What `--db` takes.
    pub url: String,
    /// The PostgreSQL database's name, if it is one.
    database: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

impl TestDb {
    /// A store of the kind this run tests.
    pub fn new() -> TestDb {
        if postgres_wanted() {
            TestDb::postgres()
        } else {
            TestDb::sqlite()
        }
    }

    /// A temporary SQLite file.
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = dir.path().join("server.sqlite").display().to_string();
        TestDb {
            url,
            database: None,
            _dir: Some(dir),
        }
    }

    /// Another handle on a store that `url` names, which this one does not drop.
    pub fn borrowed(url: &str) -> TestDb {
        TestDb {
            url: url.to_owned(),
            database: None,
            _dir: None,
        }
    }

    /// A new, empty PostgreSQL database.
    pub fn postgres() -> TestDb {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "qiguan_test_{}_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        );
        admin(&format!("CREATE DATABASE {name}"));
        let admin = admin_url();
        let base = admin
            .rsplit_once('/')
            .map_or(admin.as_str(), |(base, _)| base);
        TestDb {
            url: format!("{base}/{name}"),
            database: Some(name),
            _dir: None,
        }
    }
}

impl Default for TestDb {
    fn default() -> Self {
        TestDb::new()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(name) = &self.database {
            admin(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    }
}

impl TestDb {
    /// The PostgreSQL database's name (none for SQLite).
    pub fn database_name(&self) -> Option<&str> {
        self.database.as_deref()
    }
}

/// Runs one statement on the maintenance database, on a thread of its own (callers may be
/// inside a runtime, or in `Drop`).
pub fn admin(sql: &str) {
    let sql = sql.to_owned();
    let url = admin_url();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap_or_else(|e| {
                    panic!("PostgreSQL at {url}: {e} (scripts/install-deps sets it up)")
                });
            let driver = tokio::spawn(connection);
            client
                .batch_execute(&sql)
                .await
                .unwrap_or_else(|e| panic!("{sql}: {e}"));
            drop(client);
            let _ = driver.await;
        });
    })
    .join()
    .expect("the statement ran");
}
