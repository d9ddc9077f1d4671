//! The one error type of the API: an HTTP status and a stable code, sent as JSON. Internal
//! details are logged, never sent.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use qiguan_core::ActionError;
use serde_json::json;

/// An API error: `{"error": {"code", "message"}}`, plus the current view for a stale version.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub current: Option<serde_json::Value>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: &str) -> Self {
        ApiError {
            status,
            code,
            message: message.to_owned(),
            current: None,
        }
    }
    pub fn invalid(code: &'static str, message: &str) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }
    pub fn bad_request(code: &'static str, message: &str) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }
    pub fn not_found(code: &'static str, message: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, message)
    }
    pub fn gone(code: &'static str, message: &str) -> Self {
        Self::new(StatusCode::GONE, code, message)
    }
    pub fn unauthorized(code: &'static str, message: &str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, code, message)
    }
    pub fn forbidden(code: &'static str, message: &str) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, message)
    }
    pub fn too_many() -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate-limited",
            "too many requests; slow down",
        )
    }
    pub fn conflict(code: &'static str, message: &str, current: Option<serde_json::Value>) -> Self {
        ApiError {
            current,
            ..Self::new(StatusCode::CONFLICT, code, message)
        }
    }
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed; try again",
        )
    }
    /// A write that did not reach the disk: logged here, reported without details.
    pub fn storage(detail: String) -> Self {
        eprintln!("qiguan-server: storage error: {detail}");
        // A full disk says so (SQLite's "database or disk is full", PostgreSQL's "No space
        // left on device"): the player learns it is the server's, not a network failure.
        let lower = detail.to_lowercase();
        let message = if lower.contains("disk is full") || lower.contains("no space left") {
            "the server's disk is full, so it could not keep this; try again later"
        } else {
            "the database did not answer; try again"
        };
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "storage", message)
    }
    /// A refused action, with core's stable code.
    pub fn action(e: ActionError) -> Self {
        let status = match e {
            ActionError::NotYourTurn | ActionError::GameOver => StatusCode::CONFLICT,
            ActionError::NoSuchSeat | ActionError::NotASeat => StatusCode::FORBIDDEN,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        ApiError {
            status,
            code: e.code(),
            message: e.to_string(),
            current: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": { "code": self.code, "message": self.message } });
        if let Some(current) = self.current {
            body["current"] = current;
        }
        (self.status, Json(body)).into_response()
    }
}
