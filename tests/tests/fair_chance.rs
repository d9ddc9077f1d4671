//! Provably fair chance through the real server binary, checked by an independent checker:
//! `tests/check_fair.py`, written from docs/protocol.md with Python's standard library only.
//! An Aeroplane game against the server's computer is played to the end and a flip-mode Junqi
//! game is dealt and resigned; every roll and the deal check out from the revealed seed, and a
//! record with one roll changed fails, in the script and in core's check (the app's).
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::fair::{Verdict, verify};
use qiguan_tests::{Server, TestDb};
use serde_json::{Value, json};
use std::process::Command;

struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    async fn send(&self, req: reqwest::RequestBuilder) -> Value {
        let resp = req.send().await.unwrap();
        let status = resp.status();
        let body: Value = resp.json().await.unwrap();
        assert!(status.is_success(), "{status}: {body}");
        body
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Value {
        let mut req = self.client.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        self.send(req).await
    }

    async fn get(&self, path: &str, token: &str) -> Value {
        self.send(
            self.client
                .get(format!("{}{path}", self.base))
                .bearer_auth(token),
        )
        .await
    }
}

/// The game's record as a finished game's view carries it.
fn record(view: &Value) -> Value {
    json!({"format": 1, "game": view["game"], "options": view["options"], "setup": view["setup"],
           "actions": view["actions"], "fair": view["fair"]})
}

/// Runs the independent checker on a record: its exit status and what it printed.
fn script(record: &Value) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("record.json");
    std::fs::write(&path, record.to_string()).unwrap();
    let checker = concat!(env!("CARGO_MANIFEST_DIR"), "/check_fair.py");
    let out = Command::new("python3")
        .arg(checker)
        .arg(&path)
        .output()
        .expect("python3 runs (scripts/install-deps installs it)");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

fn core_verdict(record: &Value) -> Verdict {
    verify(&serde_json::from_value(record.clone()).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_roll_and_deal_checks_out_from_the_revealed_seed() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let api = Api {
        client: reqwest::Client::new(),
        base: server.url.clone(),
    };

    // Aeroplane chess, two seats: this client against the server's computer, to the end.
    let created = api
        .post(
            "/api/games",
            None,
            json!({"game": "aeroplane", "days_per_move": 3, "options": {"seats": 2},
                   "bots": [{"seat": 1, "strength": "strong"}]}),
        )
        .await;
    let id = created["game_id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let path = format!("/api/games/{id}");
    let mut view = api.get(&path, token).await;
    let commitment = view["fair"]["commitment"].clone();
    for n in 0..5000 {
        if view["to_act"]["kind"] == "over" {
            break;
        }
        let action = view["legal_actions"][0].as_str().unwrap().to_owned();
        let version = view["version"].clone();
        view = api
            .post(
                &format!("{path}/actions"),
                Some(token),
                json!({"expected_version": version, "client_action_id": format!("a{n}"),
                       "action": action, "contribution": format!("ann-{n}")}),
            )
            .await;
        assert_eq!(view["fair"]["commitment"], commitment, "one commitment");
    }
    assert_eq!(view["to_act"]["kind"], "over", "the game ended");
    let aeroplane = record(&view);
    let draws = aeroplane["fair"]["draws"].as_array().unwrap().len();
    assert!(draws > 20, "{draws} rolls");
    let (status, said) = script(&aeroplane);
    assert_eq!(
        (status, said.trim()),
        (0, format!("every roll checked: {draws} draws").as_str())
    );
    assert_eq!(core_verdict(&aeroplane), Verdict::Checked { draws });

    // One roll changed: both checks fail, naming that roll.
    let mut tampered = aeroplane.clone();
    let ply = tampered["fair"]["draws"][4]["ply"].as_u64().unwrap() as usize;
    let was = tampered["actions"][ply]["action"]
        .as_str()
        .unwrap()
        .to_owned();
    tampered["actions"][ply]["action"] = json!(if was == "d1" { "d2" } else { "d1" });
    let (status, said) = script(&tampered);
    assert_eq!(status, 1, "{said}");
    assert!(said.starts_with("draw 5 "), "{said}");
    match core_verdict(&tampered) {
        Verdict::Failed(f) => assert_eq!(f.draw, Some(5), "{f:?}"),
        other => panic!("{other:?}"),
    }

    // Junqi, flip mode: each seat contributes to the deal, made when the second joins.
    let created = api
        .post(
            "/api/games",
            None,
            json!({"game": "junqi", "days_per_move": 3, "options": {"visibility": "flip"},
                   "contribution": "ann-deal"}),
        )
        .await;
    let joined = api
        .post(
            "/api/join",
            None,
            json!({"invite_code": created["invite_code"], "contribution": "bo-deal"}),
        )
        .await;
    let id = created["game_id"].as_str().unwrap();
    let tokens = [
        created["token"].as_str().unwrap(),
        joined["token"].as_str().unwrap(),
    ];
    let path = format!("/api/games/{id}");
    let mut view = api.get(&path, tokens[0]).await;
    for n in 0..6 {
        let seat = n % 2;
        let action = view["legal_actions"][0].as_str().unwrap().to_owned();
        view = api
            .post(
                &format!("{path}/actions"),
                Some(tokens[seat]),
                json!({"expected_version": view["version"], "client_action_id": format!("j{n}"),
                       "action": action}),
            )
            .await;
        assert!(
            view["fair"].get("seed").is_none(),
            "no seed while it goes on"
        );
        view = api.get(&path, tokens[1 - seat]).await;
    }
    let over = api
        .post(
            &format!("{path}/actions"),
            Some(tokens[0]),
            json!({"expected_version": view["version"], "client_action_id": "resign",
                   "action": "resign"}),
        )
        .await;
    let junqi = record(&over);
    let (status, said) = script(&junqi);
    assert_eq!((status, said.trim()), (0, "every roll checked: 1 draws"));
    assert_eq!(core_verdict(&junqi), Verdict::Checked { draws: 1 });
    let mut tampered = junqi.clone();
    let deal = tampered["actions"][0]["action"]
        .as_str()
        .unwrap()
        .to_owned();
    // Two different pieces of the deal swapped.
    let mut tokens: Vec<&str> = (5..deal.len())
        .step_by(2)
        .map(|i| &deal[i..i + 2])
        .collect();
    let k = (0..tokens.len() - 1)
        .find(|&k| tokens[k] != tokens[k + 1])
        .unwrap();
    tokens.swap(k, k + 1);
    let swapped = format!("deal:{}", tokens.concat());
    tampered["actions"][0]["action"] = json!(swapped);
    let (status, said) = script(&tampered);
    assert_eq!(status, 1, "{said}");
    assert!(matches!(core_verdict(&tampered), Verdict::Failed(_)));
}
