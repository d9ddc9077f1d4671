// Copyright 2025 the Parley Authors
// SPDX-License-Identifier: Apache-2.0 OR MIT

mod cursor;
mod editor;
mod selection;

pub use self::cursor::*;
pub use self::editor::*;
pub use self::selection::*;
