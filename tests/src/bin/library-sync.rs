//! Syncs one app data directory with its library, printing `sent N` / `read N` after each
//! step the device has committed: the end-to-end tests kill it with SIGKILL in the middle.
//! Usage: library-sync DATA_DIR

use qiguan_app::library::Library;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: library-sync DATA_DIR");
        std::process::exit(2);
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut library = match Library::open(std::path::Path::new(&dir)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("library-sync: {e}");
            std::process::exit(1);
        }
    };
    library.on_progress(Box::new(|done| {
        use std::io::Write;
        println!("sent {} read {}", done.sent, done.taken);
        let _ = std::io::stdout().flush();
    }));
    match runtime.block_on(library.sync()) {
        Ok(done) => println!("done {done:?}"),
        Err(e) => {
            eprintln!("library-sync: {e}");
            std::process::exit(1);
        }
    }
}
