fn main() {
    qiguan_app::run()
}
