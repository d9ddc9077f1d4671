//! About: version and where the games are kept.

use crate::shell::ctx::Ctx;
use qiguan_ui::AboutAdapter;
use slint::ComponentHandle;
use std::rc::Rc;

pub fn connect(ctx: &Rc<Ctx>) {
    let ui = ctx.ui();
    let about = ui.global::<AboutAdapter>();
    about.set_version(env!("CARGO_PKG_VERSION").into());
    about.set_data_path(
        ctx.data_dir
            .join(crate::store::DB_FILE)
            .display()
            .to_string()
            .into(),
    );
}
