//! Android's system share sheet for a link: `Intent.ACTION_SEND` with the link as
//! `Intent.EXTRA_TEXT` (type `text/plain`), wrapped in `Intent.createChooser` and started from
//! the app's activity, through JNI. The app calls [`send_text`] from the share dialog's
//! "Share…" (`qiguan_app::share::SystemShare`, given by `qiguan-android`).
//!
//! android-activity, under Slint's Android backend, records the process's `JavaVM` and the
//! activity in `ndk_context` before `android_main` runs; they stay valid while the app runs.
//!
//! On every other target this crate is empty.

#[cfg(target_os = "android")]
use jni::{
    JNIEnv, JavaVM,
    objects::{JObject, JValue},
};

/// Opens the system share sheet titled `title` over `text`. Errors (no activity, a Java
/// exception) come back as text; the pending exception is cleared.
#[cfg(target_os = "android")]
pub fn send_text(title: &str, text: &str) -> Result<(), String> {
    let context = ndk_context::android_context();
    if context.vm().is_null() || context.context().is_null() {
        return Err("no Android activity".into());
    }
    // SAFETY: android-activity set both pointers from the running activity (module docs);
    // they outlive this call, and JObject::from_raw borrows the activity without deleting it.
    #[allow(unsafe_code)]
    let (vm, activity) = unsafe {
        (
            JavaVM::from_raw(context.vm().cast()).map_err(|e| e.to_string())?,
            JObject::from_raw(context.context().cast()),
        )
    };
    let mut env = vm.attach_current_thread().map_err(|e| e.to_string())?;
    let sent = start_chooser(&mut env, &activity, title, text);
    if env.exception_check().unwrap_or(false) {
        let _ = env.exception_describe();
        let _ = env.exception_clear();
    }
    sent.map_err(|e| e.to_string())
}

/// `activity.startActivity(Intent.createChooser(new Intent(ACTION_SEND)
///     .setType("text/plain").putExtra(EXTRA_TEXT, text), title))`.
#[cfg(target_os = "android")]
fn start_chooser(
    env: &mut JNIEnv,
    activity: &JObject,
    title: &str,
    text: &str,
) -> jni::errors::Result<()> {
    const INTENT: &str = "android/content/Intent";
    const STRING: &str = "Ljava/lang/String;";
    let action = env.get_static_field(INTENT, "ACTION_SEND", STRING)?.l()?;
    let intent = env.new_object(INTENT, "(Ljava/lang/String;)V", &[JValue::Object(&action)])?;
    let mime = JObject::from(env.new_string("text/plain")?);
    env.call_method(
        &intent,
        "setType",
        "(Ljava/lang/String;)Landroid/content/Intent;",
        &[JValue::Object(&mime)],
    )?;
    let key = env.get_static_field(INTENT, "EXTRA_TEXT", STRING)?.l()?;
    let value = JObject::from(env.new_string(text)?);
    env.call_method(
        &intent,
        "putExtra",
        "(Ljava/lang/String;Ljava/lang/String;)Landroid/content/Intent;",
        &[JValue::Object(&key), JValue::Object(&value)],
    )?;
    let title = JObject::from(env.new_string(title)?);
    let chooser = env
        .call_static_method(
            INTENT,
            "createChooser",
            "(Landroid/content/Intent;Ljava/lang/CharSequence;)Landroid/content/Intent;",
            &[JValue::Object(&intent), JValue::Object(&title)],
        )?
        .l()?;
    env.call_method(
        activity,
        "startActivity",
        "(Landroid/content/Intent;)V",
        &[JValue::Object(&chooser)],
    )?;
    Ok(())
}
