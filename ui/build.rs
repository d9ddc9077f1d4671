//! Compiles the .slint files. Debug builds carry debug info so that the testing backend can
//! find elements by accessible label; translations are bundled so no .mo files are needed.

fn main() {
    let debug = std::env::var("PROFILE")
        .map(|p| p == "debug")
        .unwrap_or(false)
        || std::env::var_os("SLINT_EMIT_DEBUG_INFO").is_some();
    let config = slint_build::CompilerConfiguration::new()
        .with_style("fluent".into())
        .with_debug_info(debug)
        .with_bundled_translations("lang")
        .with_default_translation_context(slint_build::DefaultTranslationContext::None);
    if let Err(e) = slint_build::compile_with_config("ui/main.slint", config) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    println!("cargo:rerun-if-changed=lang");
}
