//! Qiguan on Android. The activity calls [`android_main`], which starts Slint's Android
//! backend and then runs the same app as the desktop, with its history in the app's internal
//! data directory (the directories crate has no answer on Android: the platform says where).
//!
//! On every other target this crate is empty.

#[cfg(target_os = "android")]
#[allow(unsafe_code)] // the one symbol NativeActivity looks up by name
#[unsafe(no_mangle)]
fn android_main(app: slint::android::AndroidApp) {
    let data_dir = app
        .internal_data_path()
        .unwrap_or_else(|| std::path::PathBuf::from("/data/local/tmp/qiguan"));
    if let Err(e) = slint::android::init(app) {
        eprintln!("qiguan: cannot start Slint's Android backend: {e}");
        return;
    }
    let options = qiguan_app::AppOptions {
        data_dir,
        default_language: None,
        // Android may stop a paused app at any time: it comes back on the game it showed.
        resume: true,
        sound_device: true,
        // Android's notifications need a Java-side channel: not yet (docs/android.md).
        notifications: false,
        open: Vec::new(),
        // Android's share sheet (Intent.ACTION_SEND), beside Copy link.
        system_share: Some(qiguan_app::share::SystemShare::new(
            qiguan_android_share::send_text,
        )),
    };
    let code = qiguan_app::run_with(options);
    if code != 0 {
        eprintln!("qiguan: stopped with code {code}");
    }
}
