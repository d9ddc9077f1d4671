//! The `qiguan` program.

fn main() {
    std::process::exit(qiguan_app::run());
}
