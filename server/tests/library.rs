//! Libraries of linked devices through the router, with a clock the tests move: entries and
//! their conflicts, pairing (wrong, expired, used, rate-limited), unlinking. Run against SQLite,
//! and against PostgreSQL when `QIGUAN_TEST_DB=postgres`.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use qiguan_server::{Config, router};
use serde_json::{Value, json};
use sha2::Digest;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

#[path = "support/call.rs"]
mod call;
#[path = "support/testdb.rs"]
mod testdb;

const START: i64 = 1_800_000_000_000;

struct Server {
    app: axum::Router,
    clock: Arc<AtomicI64>,
    _db: testdb::TestDb,
}

async fn server_with(pair_rate: f64) -> Server {
    let db = testdb::TestDb::new();
    let clock = Arc::new(AtomicI64::new(START));
    let c = clock.clone();
    let config = Config {
        db: db.url.clone(),
        ip_rate: 0.0,
        token_rate: 0.0,
        pair_rate,
        ..Config::default()
    };
    let state = qiguan_server::open(&config, Arc::new(move || c.load(Ordering::SeqCst)))
        .await
        .unwrap();
    Server {
        app: router(state),
        clock,
        _db: db,
    }
}

impl Server {
    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        call::call(&self.app, method, path, token, body).await
    }

    /// A new library; returns (library id, device id, token).
    async fn library(&self) -> (String, String, String) {
        let (status, body) = self
            .call(
                "POST",
                "/api/libraries",
                None,
                Some(json!({"device_name": B64.encode(b"sealed name")})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        (
            body["library_id"].as_str().unwrap().into(),
            body["device_id"].as_str().unwrap().into(),
            body["token"].as_str().unwrap().into(),
        )
    }

    async fn write(&self, token: &str, entries: Value) -> (StatusCode, Value) {
        self.call(
            "POST",
            "/api/library/entries",
            Some(token),
            Some(json!({ "entries": entries })),
        )
        .await
    }

    async fn read(&self, token: &str, after: i64) -> Value {
        let (status, body) = self
            .call(
                "GET",
                &format!("/api/library/entries?after={after}"),
                Some(token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body
    }

    /// Offers pairing `id` with `proof`; returns the status.
    async fn offer(&self, token: &str, id: &str, proof: &[u8; 32], ttl: i64) -> StatusCode {
        let (status, body) = self
            .call(
                "POST",
                "/api/library/pairings",
                Some(token),
                Some(json!({
                    "pairing_id": id,
                    "verifier": B64.encode(sha2::Sha256::digest(proof)),
                    "envelope": B64.encode(b"sealed key"),
                    "ttl_seconds": ttl,
                })),
            )
            .await;
        assert!(
            status == StatusCode::CREATED || status.is_client_error(),
            "{body}"
        );
        status
    }

    async fn pair(&self, id: &str, proof: &[u8; 32]) -> (StatusCode, Value) {
        self.call(
            "POST",
            "/api/pair",
            None,
            Some(json!({
                "pairing_id": id,
                "proof": B64.encode(proof),
                "device_name": B64.encode(b"another sealed name"),
            })),
        )
        .await
    }
}

fn entry(slot: &str, entry: &str, base: Option<&str>, blob: &[u8]) -> Value {
    json!({"slot": slot, "entry": entry, "base": base, "blob": B64.encode(blob)})
}

fn slots(read: &Value) -> Vec<(String, String, Vec<u8>)> {
    read["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["slot"].as_str().unwrap().to_owned(),
                e["entry"].as_str().unwrap().to_owned(),
                B64.decode(e["blob"].as_str().unwrap()).unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn entries_are_written_on_their_base_and_read_back_in_order_of_change() {
    let s = server_with(0.0).await;
    let (_, _, token) = s.library().await;
    let (status, body) = s
        .write(
            &token,
            json!([
                entry("a", "a1", None, b"one"),
                entry("b", "b1", None, b"two")
            ]),
        )
        .await;
    assert_eq!(
        (status, body["written"].as_u64()),
        (StatusCode::OK, Some(2))
    );
    let all = s.read(&token, 0).await;
    assert_eq!(all["seq"], 2);
    assert_eq!(
        slots(&all),
        [
            ("a".into(), "a1".into(), b"one".to_vec()),
            ("b".into(), "b1".into(), b"two".to_vec())
        ]
    );

    // A write based on the newest entry replaces it, and moves the slot to the end.
    let (status, _) = s
        .write(&token, json!([entry("a", "a2", Some("a1"), b"1+")]))
        .await;
    assert_eq!(status, StatusCode::OK);
    let after = s.read(&token, 2).await;
    assert_eq!(slots(&after), [("a".into(), "a2".into(), b"1+".to_vec())]);
    assert_eq!(after["entries"][0]["seq"], 3);

    // Based on an older entry, or on none where there is one: refused, and nothing of the
    // request is written (b's good write neither).
    for stale in [Some("a1"), None] {
        let (status, body) = s
            .write(
                &token,
                json!([
                    entry("b", "b2", Some("b1"), b"x"),
                    entry("a", "a3", stale, b"y")
                ]),
            )
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert_eq!(body["error"]["code"], "entry-conflict");
    }
    let now = s.read(&token, 0).await;
    assert_eq!(
        slots(&now),
        [
            ("b".into(), "b1".into(), b"two".to_vec()),
            ("a".into(), "a2".into(), b"1+".to_vec())
        ]
    );

    // A resend of the entry the slot holds (its answer was lost) is accepted and changes
    // nothing.
    let (status, _) = s
        .write(&token, json!([entry("a", "a2", Some("a1"), b"1+")]))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(s.read(&token, 0).await["seq"], now["seq"]);

    // Paging: `more` until the last page.
    let (status, _) = s
        .write(
            &token,
            json!(
                (0..10)
                    .map(|i| entry(&format!("p{i}"), "e", None, b"z"))
                    .collect::<Vec<_>>()
            ),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = s
        .call(
            "GET",
            "/api/library/entries?after=0&limit=5",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(
        (page["entries"].as_array().unwrap().len(), &page["more"]),
        (5, &json!(true))
    );
    let last = page["entries"][4]["seq"].as_i64().unwrap();
    let (_, rest) = s
        .call(
            "GET",
            &format!("/api/library/entries?after={last}&limit=500"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(rest["more"], false);
    assert_eq!(rest["entries"].as_array().unwrap().len(), 7);
}

#[tokio::test]
async fn libraries_are_private_to_their_devices() {
    let s = server_with(0.0).await;
    let (_, _, mine) = s.library().await;
    let (_, _, theirs) = s.library().await;
    let (status, _) = s
        .write(&mine, json!([entry("a", "a1", None, b"mine")]))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(slots(&s.read(&theirs, 0).await).is_empty());
    // The same slot name in another library is another slot.
    let (status, _) = s
        .write(&theirs, json!([entry("a", "x1", None, b"theirs")]))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(slots(&s.read(&mine, 0).await)[0].2, b"mine");
    for token in [None, Some("not-a-token")] {
        let (status, body) = s.call("GET", "/api/library", token, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    }
}

#[tokio::test]
async fn bad_entries_are_refused_with_their_reason() {
    let s = server_with(0.0).await;
    let (_, _, token) = s.library().await;
    let big = vec![7u8; qiguan_server::library::MAX_BLOB + 1];
    let cases = [
        (json!([]), "bad-entries"),
        (json!([entry("a/b", "e", None, b"x")]), "bad-entry"),
        (json!([entry("a", "", None, b"x")]), "bad-entry"),
        (
            json!([entry("a", "e", Some("no spaces"), b"x")]),
            "bad-entry",
        ),
        (
            json!([{"slot": "a", "entry": "e", "blob": "not base64!"}]),
            "bad-blob",
        ),
        (json!([entry("a", "e", None, &big)]), "blob-too-large"),
        (
            json!([entry("a", "e", None, b"x"), entry("a", "f", None, b"y")]),
            "bad-entries",
        ),
    ];
    for (entries, code) in cases {
        let (status, body) = s.write(&token, entries).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some(code)),
            "{body}"
        );
    }
    let (status, _) = s
        .call("GET", "/api/library/entries?after=-1", Some(&token), None)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        slots(&s.read(&token, 0).await).is_empty(),
        "nothing was written"
    );
}

#[tokio::test]
async fn a_pairing_lets_one_device_in_once_with_the_right_proof_before_it_expires() {
    let s = server_with(0.0).await;
    let (library, first, token) = s.library().await;
    let proof = [3u8; 32];
    assert_eq!(
        s.offer(&token, "ab12", &proof, 600).await,
        StatusCode::CREATED
    );
    // The id is taken while the pairing is open.
    assert_eq!(
        s.offer(&token, "AB12", &[4u8; 32], 600).await,
        StatusCode::CONFLICT
    );

    let (status, body) = s.pair("ab12", &[9u8; 32]).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::NOT_FOUND, &json!("unknown-pairing"))
    );
    let (status, _) = s.pair("zz99", &proof).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, joined) = s.pair("AB12", &proof).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["library_id"], library.as_str());
    assert_eq!(
        B64.decode(joined["envelope"].as_str().unwrap()).unwrap(),
        b"sealed key"
    );
    let second = joined["token"].as_str().unwrap();
    assert_ne!(joined["device_id"], first.as_str());

    // Used once.
    let (status, _) = s.pair("ab12", &proof).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Both devices see the same library and both devices in it.
    let (_, described) = s.call("GET", "/api/library", Some(second), None).await;
    assert_eq!(described["library_id"], library.as_str());
    assert_eq!(described["devices"].as_array().unwrap().len(), 2);
    let (status, _) = s
        .write(second, json!([entry("g", "e1", None, b"from two")]))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(slots(&s.read(&token, 0).await)[0].2, b"from two");

    // Expiry: refused with its own code once the clock passes it, and the id is free again.
    assert_eq!(
        s.offer(&token, "cd34", &proof, 60).await,
        StatusCode::CREATED
    );
    s.clock.fetch_add(60_000, Ordering::SeqCst);
    let (status, body) = s.pair("cd34", &proof).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::GONE, &json!("pairing-expired"))
    );
    assert_eq!(
        s.offer(&token, "cd34", &proof, 60).await,
        StatusCode::CREATED
    );

    // Bad offers.
    assert_eq!(
        s.offer(&token, "abc", &proof, 60).await,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        s.offer(&token, "ef56", &proof, 901).await,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

#[tokio::test]
async fn wrong_proofs_withdraw_a_pairing() {
    let s = server_with(0.0).await;
    let (_, _, token) = s.library().await;
    let proof = [5u8; 32];
    assert_eq!(
        s.offer(&token, "wxyz", &proof, 600).await,
        StatusCode::CREATED
    );
    for i in 0..5u8 {
        let (status, _) = s.pair("wxyz", &[100 + i; 32]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    // Even the right proof is now refused: the code has to be made anew.
    let (status, _) = s.pair("wxyz", &proof).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn pairing_attempts_are_rate_limited_per_address() {
    let s = server_with(3.0).await;
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(s.pair("abcd", &[1u8; 32]).await.0);
    }
    assert_eq!(
        statuses,
        [
            StatusCode::NOT_FOUND,
            StatusCode::NOT_FOUND,
            StatusCode::NOT_FOUND,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
    // Other requests are not held by it.
    let (_, _, token) = s.library().await;
    assert_eq!(s.read(&token, 0).await["seq"], 0);
}

#[tokio::test]
async fn any_device_unlinks_any_other_and_an_unlinked_device_is_refused() {
    let s = server_with(0.0).await;
    let (_, first, token) = s.library().await;
    let proof = [8u8; 32];
    assert_eq!(
        s.offer(&token, "1234", &proof, 600).await,
        StatusCode::CREATED
    );
    let (_, joined) = s.pair("1234", &proof).await;
    let (second, second_token) = (
        joined["device_id"].as_str().unwrap().to_owned(),
        joined["token"].as_str().unwrap().to_owned(),
    );
    // The new device unlinks the first.
    let (status, _) = s
        .call(
            "DELETE",
            &format!("/api/library/devices/{first}"),
            Some(&second_token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = s
        .call("GET", "/api/library/entries", Some(&token), None)
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (StatusCode::UNAUTHORIZED, &json!("device-unlinked"))
    );
    let (_, described) = s
        .call("GET", "/api/library", Some(&second_token), None)
        .await;
    let unlinked = |id: &str| {
        described["devices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["device_id"] == id)
            .map(|d| d["unlinked_at"].is_i64())
    };
    assert_eq!(unlinked(&first), Some(true), "{described}");
    assert_eq!(unlinked(&second), Some(false), "{described}");
    // Twice, or a device of no library: not found.
    for id in [first.as_str(), "nosuchdevice"] {
        let (status, _) = s
            .call(
                "DELETE",
                &format!("/api/library/devices/{id}"),
                Some(&second_token),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
    // A device may unlink itself.
    let (status, _) = s
        .call(
            "DELETE",
            &format!("/api/library/devices/{second}"),
            Some(&second_token),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = s
        .call("GET", "/api/library", Some(&second_token), None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
