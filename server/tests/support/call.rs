//! One request through the router (no sockets), answered as status and JSON.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// Sends `method path` with an optional bearer token and JSON body; returns the status and the
/// body as JSON (`Null` when it is not JSON).
pub async fn call(
    app: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b.to_string()))
            .expect("a request"),
        None => req.body(Body::empty()).expect("a request"),
    };
    let resp = app.clone().oneshot(req).await.expect("an answer");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("a body").to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}
