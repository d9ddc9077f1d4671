//! The shared game page (`/g/{id}`) in a real headless Chromium against the real server
//! binary: a Xiangqi game steps back and forth, follows a move made through the API, switches
//! notation and language, downloads and withdraws; a Junqi game in progress shows no hidden
//! piece in the page, its picture or its downloads, and everything once it is over; games
//! kept on a device are uploaded and shown. Every page loads with no console error. The pages
//! and their screenshots are left in `target/<profile>/share-pages` (`scripts/test` validates
//! the HTML there).
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use qiguan_core::junqi::{Deployment, Rank, Side};
use qiguan_core::share::Sheet;
use qiguan_core::{Actor, AnyMatch, GameKind, Record, ToAct};
use qiguan_tests::browser::Browser;
use qiguan_tests::{Server, TestDb, artefacts};
use serde_json::{Value, json};

/// Blocking calls to the server's API (the browser is driven synchronously).
struct Api {
    rt: tokio::runtime::Runtime,
    client: reqwest::Client,
    base: String,
}

impl Api {
    fn new(base: &str) -> Api {
        // reqwest is built for the app's HTTPS with no crypto provider of its own.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Api {
            rt: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap(),
            client: reqwest::Client::new(),
            base: base.to_owned(),
        }
    }

    /// Sends a request: its status, content type and body.
    fn send(&self, req: reqwest::RequestBuilder) -> (u16, String, Vec<u8>) {
        self.rt.block_on(async {
            let resp = req.send().await.unwrap();
            let status = resp.status().as_u16();
            let kind = resp
                .headers()
                .get("content-type")
                .map(|v| v.to_str().unwrap().to_owned())
                .unwrap_or_default();
            (status, kind, resp.bytes().await.unwrap().to_vec())
        })
    }

    fn get(&self, path: &str) -> (u16, String, Vec<u8>) {
        self.send(self.client.get(format!("{}{path}", self.base)))
    }

    fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        let mut req = self.client.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            req = req.bearer_auth(token);
        }
        let (status, _, body) = self.send(req);
        (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
    }

    fn delete(&self, path: &str, token: &str) -> u16 {
        self.send(
            self.client
                .delete(format!("{}{path}", self.base))
                .bearer_auth(token),
        )
        .0
    }

    /// A game between two people: its id and both seats' tokens, and the invite code used.
    fn two_seat_game(&self, game: &str, options: Value) -> (String, [String; 2], String) {
        let (status, created) = self.post(
            "/api/games",
            None,
            &json!({"game": game, "options": options, "days_per_move": 3, "name": "张三"}),
        );
        assert_eq!(status, 201, "{created}");
        let code = created["invite_code"].as_str().unwrap().to_owned();
        let (status, joined) = self.post(
            "/api/join",
            None,
            &json!({"invite_code": code, "name": "Li Si"}),
        );
        assert_eq!(status, 200, "{joined}");
        (
            created["game_id"].as_str().unwrap().to_owned(),
            [
                created["token"].as_str().unwrap().to_owned(),
                joined["token"].as_str().unwrap().to_owned(),
            ],
            code,
        )
    }

    /// A seat's action; returns the seat's view after it.
    fn act(&self, id: &str, token: &str, version: u64, action: &str) -> Value {
        let (status, view) = self.post(
            &format!("/api/games/{id}/actions"),
            Some(token),
            &json!({"expected_version": version, "client_action_id": format!("a{version}-{action}"), "action": action}),
        );
        assert_eq!(status, 200, "{action}: {view}");
        view
    }

    fn share(&self, id: &str, token: &str) -> String {
        let (status, shared) =
            self.post(&format!("/api/games/{id}/share"), Some(token), &json!({}));
        assert!(status == 201 || status == 200, "{shared}");
        assert_eq!(
            shared["path"],
            format!("/g/{}", shared["id"].as_str().unwrap())
        );
        shared["id"].as_str().unwrap().to_owned()
    }
}

/// The pieces the board shows now: each visible mark's words and where it stands.
fn pieces(browser: &mut Browser) -> Vec<(String, f64, f64)> {
    let found = browser.eval(
        r#"[...document.querySelectorAll('svg g[id^="m"]')]
            .filter(g => g.getAttribute('display') !== 'none')
            .map(g => {
                const shape = g.querySelector('circle, rect');
                const t = g.querySelector('text');
                const box = shape.tagName === 'rect'
                    ? [+shape.getAttribute('x') + +shape.getAttribute('width') / 2,
                       +shape.getAttribute('y') + +shape.getAttribute('height') / 2]
                    : [+shape.getAttribute('cx'), +shape.getAttribute('cy')];
                return shape.getAttribute('fill') === 'none' ? null : [t ? t.textContent : '', box[0], box[1]];
            })
            .filter(Boolean)"#,
    );
    found
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_f64().unwrap(),
                p[2].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Where a Xiangqi point is drawn: file a–i from the left, rank 1–10 from Red's side (the
/// board picture's 40 px grid inside its 46 px and 66 px margins).
fn xiangqi_point(point: &str) -> (f64, f64) {
    let file = f64::from(point.as_bytes()[0] - b'a');
    let rank: f64 = point[1..].parse().unwrap();
    (46.0 + file * 40.0, 492.0 - 66.0 - (rank - 1.0) * 40.0)
}

fn has(pieces: &[(String, f64, f64)], name: &str, point: &str) -> bool {
    let (x, y) = xiangqi_point(point);
    pieces
        .iter()
        .any(|(n, px, py)| n == name && (px - x).abs() < 0.5 && (py - y).abs() < 0.5)
}

fn step_shown(browser: &mut Browser) -> u64 {
    browser
        .eval("Number(document.getElementById('game').dataset.ply)")
        .as_u64()
        .unwrap()
}

/// Keeps the page's HTML (for the validator) and its screenshots at phone and desktop size.
fn keep(browser: &mut Browser, api: &Api, path: &str, name: &str) {
    let dir = artefacts();
    let (_, _, html) = api.get(path);
    std::fs::write(dir.join(format!("{name}.html")), html).unwrap();
    for (size, w, h, mobile) in [("phone", 360, 780, true), ("desktop", 1280, 800, false)] {
        browser.size(w, h, mobile);
        browser.open(&format!("{}{path}", api.base));
        std::fs::write(dir.join(format!("{name}-{size}.png")), browser.screenshot()).unwrap();
    }
}

fn no_errors(browser: &mut Browser) {
    browser.settle();
    assert!(
        browser.errors.is_empty(),
        "console errors: {:?}",
        browser.errors
    );
}

#[test]
fn a_shared_xiangqi_game_steps_follows_live_and_is_withdrawn() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let api = Api::new(&server.url);
    let (id, tokens, invite) = api.two_seat_game("xiangqi", Value::Null);
    let moves = ["h3e3", "h10g8", "h1g3", "i10h10", "e3e7", "b10c8"];
    for (n, mv) in moves.iter().enumerate() {
        api.act(&id, &tokens[n % 2], n as u64, mv);
    }
    let share = api.share(&id, &tokens[0]);
    // Sharing again gives the same link, to either seat.
    assert_eq!(api.share(&id, &tokens[1]), share);

    // The page, its picture and downloads carry no token, invite code or game id.
    let (status, kind, html) = api.get(&format!("/g/{share}?lang=zh"));
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    let html = String::from_utf8(html).unwrap();
    for secret in [&tokens[0], &tokens[1], &invite, &id] {
        assert!(!html.contains(secret.as_str()), "the page carries {secret}");
    }
    assert!(
        html.contains(&format!("/g/{share}.png\"")),
        "a preview picture"
    );
    assert!(html.contains("张三") && html.contains("Li Si"));

    let mut browser = Browser::start();
    browser.size(1280, 800, false);
    browser.open(&format!("{}/g/{share}?lang=zh", server.url));
    // The newest position: after six moves, the cannon on e7 took a soldier (31 pieces).
    assert_eq!(step_shown(&mut browser), 6);
    let now = pieces(&mut browser);
    assert_eq!(now.len(), 31);
    assert!(has(&now, "炮", "e7") && has(&now, "马", "c8") && !has(&now, "炮", "e3"));

    // Back with the keyboard, forward with the button, to the start and the end.
    browser.press("ArrowLeft");
    browser.press("ArrowLeft");
    assert_eq!(step_shown(&mut browser), 4);
    let four = pieces(&mut browser);
    assert_eq!(four.len(), 32);
    assert!(has(&four, "炮", "e3") && has(&four, "卒", "e7"));
    browser.eval("document.getElementById('forward').click()");
    assert_eq!(step_shown(&mut browser), 5);
    assert!(has(&pieces(&mut browser), "炮", "e7"));
    browser.press("Home");
    let start = pieces(&mut browser);
    assert_eq!(start.len(), 32);
    assert!(has(&start, "炮", "h3") && has(&start, "马", "h1"));
    assert_eq!(
        browser.eval("document.getElementById('where').textContent"),
        "开局"
    );
    // A move in the list goes to the position after it.
    browser.eval("document.querySelector('#steps a[data-ply=\"3\"]').click()");
    assert_eq!(step_shown(&mut browser), 3);
    assert!(has(&pieces(&mut browser), "马", "g3"));
    browser.press("End");
    assert_eq!(step_shown(&mut browser), 6);

    // Without the script the server draws any step: ?ply=1 shows the cannon on e3.
    browser.open(&format!("{}/g/{share}?lang=zh&ply=1", server.url));
    assert_eq!(step_shown(&mut browser), 1);
    assert!(has(&pieces(&mut browser), "炮", "e3"));
    browser.press("End");

    // Live: a move made through the API shows within 2 seconds, on the page's own event.
    browser.eval(
        r#"window.moved = new Promise(done => {
            const seen = () => document.getElementById('game').dataset.version === '7';
            new MutationObserver(() => { if (seen()) done('shown'); })
                .observe(document.body, { subtree: true, childList: true, attributes: true });
        }); 0"#,
    );
    api.act(&id, &tokens[0], 6, "a1a2");
    let shown = browser.eval(
        "Promise.race([window.moved, new Promise(late => setTimeout(() => late('late'), 2000))])",
    );
    assert_eq!(
        shown, "shown",
        "the page did not follow the move within 2 seconds"
    );
    assert_eq!(step_shown(&mut browser), 7);
    assert!(has(&pieces(&mut browser), "车", "a2"));
    assert_eq!(
        browser.eval("document.getElementById('where').textContent"),
        "7 / 7 步"
    );
    no_errors(&mut browser);

    // The notation the reader picks, in the language they pick.
    let first = "document.querySelector('#steps a').textContent";
    for (query, words) in [
        ("lang=zh", "炮二平五"),
        ("lang=en", "C2=5"),
        ("lang=en&n=coords", "h3e3"),
        ("lang=zh&n=wxf", "C2=5"),
    ] {
        browser.open(&format!("{}/g/{share}?{query}", server.url));
        assert_eq!(browser.eval(first), words, "{query}");
    }
    assert_eq!(browser.eval("document.documentElement.lang"), "zh-Hans");
    no_errors(&mut browser);
    keep(
        &mut browser,
        &api,
        &format!("/g/{share}?lang=zh"),
        "share-xiangqi",
    );
    keep(
        &mut browser,
        &api,
        &format!("/g/{share}?lang=en"),
        "share-xiangqi-en",
    );
    no_errors(&mut browser);

    // Downloads: the PGN in WXF, and the record the app imports, which replays.
    let (status, _, pgn) = api.get(&format!("/g/{share}.pgn"));
    let pgn = String::from_utf8(pgn).unwrap();
    assert_eq!(status, 200);
    assert!(
        pgn.contains("1. C2=5 H8+7") && pgn.contains("[White \"张三\"]"),
        "{pgn}"
    );
    let (status, _, record) = api.get(&format!("/g/{share}.json"));
    assert_eq!(status, 200);
    let record = Record::from_json(std::str::from_utf8(&record).unwrap()).unwrap();
    assert_eq!(AnyMatch::from_record(&record).unwrap().version(), 7);
    // The picture for chat previews.
    let (status, kind, picture) = api.get(&format!("/g/{share}.png"));
    assert_eq!((status, kind.as_str()), (200, "image/png"));
    std::fs::write(artefacts().join("share-xiangqi-preview.png"), &picture).unwrap();
    let info = png::Decoder::new(std::io::Cursor::new(picture))
        .read_info()
        .unwrap()
        .info()
        .clone();
    assert_eq!((info.width, info.height), (824, 984));

    // Withdrawn: only a seat may, and then the page, picture and downloads answer 410.
    assert_eq!(
        api.delete(&format!("/api/shares/{share}"), "not-a-token"),
        403
    );
    assert_eq!(api.delete(&format!("/api/shares/{share}"), &tokens[1]), 204);
    for path in ["", ".png", ".json", ".pgn"] {
        assert_eq!(api.get(&format!("/g/{share}{path}")).0, 410, "{path}");
    }
    browser.open(&format!("{}/g/{share}?lang=en", server.url));
    assert_eq!(
        browser.eval("document.querySelector('h1').textContent"),
        "Link withdrawn"
    );
    // The browser logs the page's own 410, and nothing else.
    browser.settle();
    assert!(
        browser.errors.len() == 1 && browser.errors[0].contains("410 (Gone)"),
        "{:?}",
        browser.errors
    );
    browser.errors.clear();
    let (_, _, gone) = api.get(&format!("/g/{share}"));
    std::fs::write(artefacts().join("share-withdrawn.html"), gone).unwrap();
    // A new link can be made after that.
    assert_ne!(api.share(&id, &tokens[0]), share);
    // An unknown link is a page too.
    assert_eq!(api.get("/g/no-such-link").0, 404);
}

#[test]
fn a_junqi_game_in_progress_hides_its_pieces_on_the_page_the_picture_and_the_downloads() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let api = Api::new(&server.url);
    let (id, tokens, _) = api.two_seat_game("junqi", json!({"visibility": "referee"}));
    let layouts = [
        Deployment::random(Side::South, 21).to_text(),
        Deployment::random(Side::North, 22).to_text(),
    ];
    api.act(&id, &tokens[0], 0, &format!("deploy:{}", layouts[0]));
    let mut view = api.act(&id, &tokens[1], 1, &format!("deploy:{}", layouts[1]));
    // Thirty moves, attacks first, as the referee test plays them.
    for ply in 0..30 {
        if view["to_act"]["kind"] == "over" {
            break;
        }
        let seat = view["to_act"]["who"].as_u64().unwrap() as usize;
        let (_, _, body) = api.send(
            api.client
                .get(format!("{}/api/games/{id}", api.base))
                .bearer_auth(&tokens[seat]),
        );
        let mine: Value = serde_json::from_slice(&body).unwrap();
        let side = ["south", "north"][seat];
        let held: Vec<String> = mine["view"]["game"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["side"] != side)
            .map(|p| p["at"].as_str().unwrap().to_owned())
            .collect();
        let moves: Vec<&str> = mine["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|a| a.chars().next().is_some_and(|c| ('a'..='e').contains(&c)))
            .collect();
        let mv = moves
            .iter()
            .find(|m| held.iter().any(|h| m.ends_with(h.as_str())))
            .or(moves.get(ply % moves.len().max(1)))
            .unwrap()
            .to_string();
        view = api.act(&id, &tokens[seat], mine["version"].as_u64().unwrap(), &mv);
    }
    assert_ne!(view["to_act"]["kind"], "over", "the game goes on");
    let share = api.share(&id, &tokens[1]);

    // What may show is what a spectator sees: no rank's name (the flag once its marshal falls
    // is everyone's to know), no deployment text, in the page, its SVG or its step words.
    let hidden_ranks: Vec<&str> = Rank::ALL
        .iter()
        .filter(|r| **r != Rank::Flag)
        .map(|r| r.chinese())
        .collect();
    let mut browser = Browser::start();
    browser.size(360, 780, true);
    browser.open(&format!("{}/g/{share}?lang=zh", server.url));
    let dom = browser.eval("document.documentElement.outerHTML");
    let dom = dom.as_str().unwrap();
    for name in &hidden_ranks {
        assert!(!dom.contains(name), "the page names a hidden {name}");
    }
    for layout in &layouts {
        assert!(!dom.contains(layout.as_str()), "a deployment leaked");
    }
    // Every position the script can show, stepped through from the start, shows only blank
    // tiles.
    browser.press("Home");
    loop {
        for (name, _, _) in pieces(&mut browser) {
            assert!(
                name.is_empty() || name == Rank::Flag.chinese(),
                "{name} shows"
            );
        }
        let ply = step_shown(&mut browser);
        browser.press("ArrowRight");
        if step_shown(&mut browser) == ply {
            break;
        }
    }
    let tiles = pieces(&mut browser);
    assert!(
        tiles.len() > 10,
        "the pieces stand on the board: {}",
        tiles.len()
    );

    // The picture: every piece's tile is filled with its side's ink, none with the light
    // face a piece shows its name on (sampled inside each tile, left of where words go).
    let (status, _, picture) = api.get(&format!("/g/{share}.png"));
    assert_eq!(status, 200);
    std::fs::write(artefacts().join("share-junqi-preview.png"), &picture).unwrap();
    let mut decoder = png::Decoder::new(std::io::Cursor::new(picture))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; decoder.output_buffer_size().unwrap()];
    let frame = decoder.next_frame(&mut pixels).unwrap();
    let channels = frame.color_type.samples();
    for (name, x, y) in &tiles {
        let (px, py) = (((x - 18.0) * 2.0) as usize, (y * 2.0) as usize);
        let at = (py * frame.width as usize + px) * channels;
        let (r, g, b) = (pixels[at], pixels[at + 1], pixels[at + 2]);
        let light = r > 200 && g > 200 && b > 180;
        // Only a flag shown when its marshal fell has a face to show.
        assert_eq!(
            light,
            !name.is_empty(),
            "the tile at ({x}, {y}) ({name:?}) in the picture: ({r}, {g}, {b})"
        );
    }
    // No record to download while the game goes on.
    assert_eq!(api.get(&format!("/g/{share}.json")).0, 403);
    no_errors(&mut browser);
    keep(
        &mut browser,
        &api,
        &format!("/g/{share}?lang=zh"),
        "share-junqi",
    );

    // Over: every position shows every piece, and the record (both deployments) downloads.
    let (status, _) = api.post(
        &format!("/api/games/{id}/actions"),
        Some(&tokens[0]),
        &json!({"expected_version": view["version"], "client_action_id": "resign", "action": "resign"}),
    );
    assert_eq!(status, 200);
    browser.open(&format!("{}/g/{share}?lang=zh", server.url));
    let named = pieces(&mut browser);
    assert!(!named.is_empty() && named.iter().all(|(n, _, _)| !n.is_empty()));
    let (status, _, record) = api.get(&format!("/g/{share}.json"));
    assert_eq!(status, 200);
    let record = String::from_utf8(record).unwrap();
    assert!(layouts.iter().all(|l| record.contains(l.as_str())));
    no_errors(&mut browser);
    keep(
        &mut browser,
        &api,
        &format!("/g/{share}?lang=en"),
        "share-junqi-over-en",
    );
    no_errors(&mut browser);
}

/// Plays a game with the core's computer for `plies` actions, the authority rolling from a
/// fixed seed.
fn played(kind: GameKind, options: Value, plies: usize) -> AnyMatch {
    let mut game = AnyMatch::new(kind, &options, &Value::Null).unwrap();
    let mut pick = qiguan_core::matches::seeded_pick(5);
    for n in 0..plies {
        match game.to_act() {
            ToAct::Seat(seat) => {
                let action = game
                    .computer_action(seat, qiguan_core::Strength::Easy, n as u64)
                    .unwrap();
                game.apply_text(Actor::Seat(seat), &action).unwrap();
            }
            ToAct::Seats(seats) => {
                let action = game
                    .computer_action(seats[0], qiguan_core::Strength::Easy, n as u64)
                    .unwrap();
                game.apply_text(Actor::Seat(seats[0]), &action).unwrap();
            }
            ToAct::Chance => {
                game.resolve_chance(&mut pick).unwrap();
            }
            ToAct::Over(_) => break,
        }
    }
    game
}

#[test]
fn games_kept_on_a_device_are_uploaded_shown_and_withdrawn_with_their_key() {
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let api = Api::new(&server.url);
    let mut browser = Browser::start();

    // Aeroplane chess for four, its record as the app keeps it.
    let aeroplane = played(GameKind::Aeroplane, json!({"seats": 4}), 160);
    let (status, shared) = api.post(
        "/api/shares",
        None,
        &json!({"record": aeroplane.record(), "names": ["王五", "", "Ann", ""]}),
    );
    assert_eq!(status, 201, "{shared}");
    let plane_share = shared["id"].as_str().unwrap().to_owned();
    let key = shared["key"].as_str().unwrap().to_owned();
    browser.size(1280, 800, false);
    browser.open(&format!("{}/g/{plane_share}?lang=en", server.url));
    let planes = pieces(&mut browser);
    assert_eq!(planes.len(), 16, "four planes of four colours");
    assert!(
        browser
            .eval("document.body.textContent")
            .as_str()
            .unwrap()
            .contains("王五")
    );
    no_errors(&mut browser);
    keep(
        &mut browser,
        &api,
        &format!("/g/{plane_share}?lang=zh"),
        "share-aeroplane",
    );
    // The board's own words in the page's language (piece names stay Chinese).
    let html = |path: String| String::from_utf8(api.get(&path).2).unwrap();
    let english = html(format!("/g/{plane_share}?lang=en"));
    assert!(english.contains("Red hangar") && english.contains("Goal"));
    assert!(!english.contains("机库") && !english.contains("终点"));
    assert!(html(format!("/g/{plane_share}?lang=zh")).contains("红方机库"));

    // Sea-land-air still going on: its record would tell the hidden pieces and is refused;
    // what a spectator sees (core's sheet, made on the device) is taken.
    let sea = played(GameKind::SeaLandAir, Value::Null, 40);
    assert!(sea.outcome().is_none());
    let (status, refused) = api.post("/api/shares", None, &json!({"record": sea.record()}));
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (422, Some("secret-record")),
        "{refused}"
    );
    let sheet = Sheet::of(&sea.record()).unwrap();
    assert!(sheet.hidden);
    let (status, shared) = api.post(
        "/api/shares",
        None,
        &json!({"sheet": sheet, "names": ["South player", "北方玩家"]}),
    );
    assert_eq!(status, 201, "{shared}");
    let sea_share = shared["id"].as_str().unwrap().to_owned();
    browser.open(&format!("{}/g/{sea_share}?lang=zh", server.url));
    assert!(pieces(&mut browser).len() > 30);
    assert_eq!(api.get(&format!("/g/{sea_share}.json")).0, 403);
    no_errors(&mut browser);
    keep(
        &mut browser,
        &api,
        &format!("/g/{sea_share}?lang=zh"),
        "share-sealandair",
    );
    let english = html(format!("/g/{sea_share}?lang=en"));
    assert!(english.contains("Airport") && english.contains("Border"));
    assert!(english.contains("城 city") && english.contains("Red"));
    assert!(!english.contains("机场") && !english.contains("国界") && !english.contains("南方"));
    let chinese = html(format!("/g/{sea_share}?lang=zh"));
    assert!(chinese.contains("机场") && chinese.contains("城 军旗城"));

    // Bad uploads: neither, both, a sheet that does not hold together, too many names.
    for (body, error) in [
        (json!({}), "record-or-sheet"),
        (
            json!({"record": aeroplane.record(), "sheet": sheet}),
            "record-or-sheet",
        ),
        (
            json!({"names": ["a", "b", "c", "d", "e"], "record": aeroplane.record()}),
            "bad-names",
        ),
        (json!({"sheet": {"game": "xiangqi"}}), "bad-sheet"),
        (
            json!({"record": {"format": 1, "game": "chess"}}),
            "bad-record",
        ),
        (
            json!({"record": {"format": 9, "game": "xiangqi", "options": null, "setup": null, "actions": []}}),
            "bad-record",
        ),
    ] {
        let (status, answer) = api.post("/api/shares", None, &body);
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (422, Some(error)),
            "{answer}"
        );
    }
    let mut broken = serde_json::to_value(&sheet).unwrap();
    broken["frames"][1] = json!([999_999]);
    let (status, answer) = api.post("/api/shares", None, &json!({"sheet": broken}));
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (422, Some("bad-sheet"))
    );

    // Only the upload's key withdraws it.
    assert_eq!(
        api.delete(&format!("/api/shares/{plane_share}"), "wrong-key"),
        403
    );
    assert_eq!(api.delete(&format!("/api/shares/{sea_share}"), &key), 403);
    assert_eq!(api.delete(&format!("/api/shares/{plane_share}"), &key), 204);
    assert_eq!(api.get(&format!("/g/{plane_share}")).0, 410);
    assert_eq!(api.get(&format!("/g/{sea_share}")).0, 200);
}

/// The app's side: a pass-and-play Junqi game still going on, kept on the device, goes up as
/// what a spectator sees (the server never gets its record); a correspondence game is shared
/// from the server's copy; each link is kept, given again when asked again, and withdrawn.
#[test]
fn the_app_shares_a_game_kept_on_the_device_and_a_correspondence_game() {
    use qiguan_app::store::{Mode, NewGame, Standing, Store};
    use qiguan_app::sync::Correspondence;
    let db = TestDb::new();
    let server = Server::start(&db.url, "127.0.0.1:0");
    let api = Api::new(&server.url);
    let dir = tempfile::tempdir().unwrap();
    let mut engine = Correspondence::open(dir.path()).unwrap();

    // Pass and play, referee mode, deployed and thirty moves in.
    let mut game = AnyMatch::new(
        GameKind::Junqi,
        &json!({"visibility": "referee"}),
        &Value::Null,
    )
    .unwrap();
    let layouts = [
        Deployment::random(Side::South, 5).to_text(),
        Deployment::random(Side::North, 6).to_text(),
    ];
    for (seat, layout) in layouts.iter().enumerate() {
        let seat = qiguan_core::Seat::new(seat as u8).unwrap();
        game.apply_text(Actor::Seat(seat), &format!("deploy:{layout}"))
            .unwrap();
    }
    for n in 0..30 {
        let ToAct::Seat(seat) = game.to_act() else {
            break;
        };
        let action = game
            .computer_action(seat, qiguan_core::Strength::Easy, n)
            .unwrap();
        game.apply_text(Actor::Seat(seat), &action).unwrap();
    }
    let record = game.record();
    let local = {
        let mut store = Store::open_dir(dir.path()).unwrap();
        let new = NewGame::from_record(&record, Mode::PassAndPlay, vec!["甲".into(), "乙".into()]);
        let standing = Standing::new(&record.actions, None);
        store
            .create_game_with(&new, &record.actions, &standing, 1)
            .unwrap()
    };
    let rt = &api.rt;
    // No server address: nowhere to upload to.
    let e = rt
        .block_on(qiguan_app::share::share(&mut engine, local, None, 2))
        .unwrap_err();
    assert_eq!(e.code(), "no-server");
    let kept = rt
        .block_on(qiguan_app::share::share(
            &mut engine,
            local,
            Some(&server.url),
            2,
        ))
        .unwrap();
    assert!(kept.key.is_some());
    let again = rt
        .block_on(qiguan_app::share::share(
            &mut engine,
            local,
            Some(&server.url),
            3,
        ))
        .unwrap();
    assert_eq!(again, kept, "the same link when shared again");
    let path = kept.url().replacen(&server.url, "", 1);
    let (status, _, page) = api.get(&format!("{path}?lang=zh"));
    assert_eq!(status, 200);
    let page = String::from_utf8(page).unwrap();
    for rank in [
        Rank::FieldMarshal,
        Rank::Bomb,
        Rank::Landmine,
        Rank::Engineer,
    ] {
        assert!(!page.contains(rank.chinese()), "{}", rank.chinese());
    }
    assert!(layouts.iter().all(|l| !page.contains(l.as_str())));
    assert!(page.contains("甲") && page.contains("乙"));

    // The game goes on on the device: each change goes up (what a spectator sees while it
    // goes on), a page waiting on it wakes, and once it is over its whole record shows.
    let steps = |api: &Api| -> u64 {
        let (_, _, page) = api.get(&format!("{path}?lang=en"));
        let page = String::from_utf8(page).unwrap();
        page.matches("data-ply=").count() as u64
    };
    let before = steps(&api);
    let nothing = rt
        .block_on(qiguan_app::share::send_changed_uploads(&mut engine))
        .unwrap();
    assert!(nothing.is_empty(), "nothing changed since it went up");
    let version = record.actions.len();
    let waiter = {
        let (base, link) = (server.url.clone(), kept.link.clone());
        std::thread::spawn(move || {
            let api = Api::new(&base);
            let (status, _, body) = api.get(&format!("/g/{link}/wait?after={version}"));
            (status, serde_json::from_slice::<Value>(&body).unwrap())
        })
    };
    let append = |game: &mut AnyMatch, actor: Actor, action: &str| {
        let ply = game.record().actions.len();
        game.apply_text(actor, action).unwrap();
        let record = game.record();
        let mut store = Store::open_dir(dir.path()).unwrap();
        let standing = Standing::new(&record.actions, None);
        store
            .append_action(local, ply, &record.actions[ply], &standing, 5)
            .unwrap();
    };
    let ToAct::Seat(seat) = game.to_act() else {
        panic!("the game goes on")
    };
    let action = game
        .computer_action(seat, qiguan_core::Strength::Easy, 99)
        .unwrap();
    append(&mut game, Actor::Seat(seat), &action);
    let sent = rt
        .block_on(qiguan_app::share::send_changed_uploads(&mut engine))
        .unwrap();
    assert_eq!(sent, [local]);
    let (status, woken) = waiter.join().unwrap();
    assert_eq!(status, 200, "{woken}");
    assert!(
        woken["version"].as_u64().unwrap() > version as u64,
        "{woken}"
    );
    assert!(steps(&api) > before, "the page shows the new move");
    assert_eq!(api.get(&format!("{path}.json")).0, 403, "still secret");
    let ToAct::Seat(seat) = game.to_act() else {
        panic!("the game goes on")
    };
    append(&mut game, Actor::Seat(seat), "resign");
    assert!(game.outcome().is_some());
    let sent = rt
        .block_on(qiguan_app::share::send_changed_uploads(&mut engine))
        .unwrap();
    assert_eq!(sent, [local]);
    let (status, _, json) = api.get(&format!("{path}.json"));
    assert_eq!(status, 200, "the whole record once it is over");
    let shown: Record = serde_json::from_slice(&json).unwrap();
    assert_eq!(shown.actions, game.record().actions);
    let (_, _, page) = api.get(&format!("{path}?lang=zh"));
    assert!(
        String::from_utf8(page)
            .unwrap()
            .contains(Rank::FieldMarshal.chinese())
    );
    // Another kind of game is not sent under the link, and only the key sends it.
    let key = kept.key.clone().unwrap();
    let other = json!({"record": played(GameKind::Xiangqi, Value::Null, 4).record()});
    let put = |token: &str, body: &Value| {
        let (status, _, body) = api.send(
            api.client
                .put(format!("{}/api/shares/{}", server.url, kept.link))
                .bearer_auth(token)
                .json(body),
        );
        (
            status,
            serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null),
        )
    };
    let (status, answer) = put(&key, &other);
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (422, Some("other-game"))
    );
    let (status, answer) = put("not-the-key", &json!({"record": game.record()}));
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (403, Some("not-yours"))
    );

    rt.block_on(qiguan_app::share::withdraw(&mut engine, local))
        .unwrap();
    let (status, _) = put(&key, &json!({"record": game.record()}));
    assert_eq!(status, 410, "a withdrawn link takes nothing more");
    assert_eq!(api.get(&path).0, 410);
    assert_eq!(engine.store().kept_share(local).unwrap(), None);

    // A correspondence game, shared from the server's copy by its seat.
    let (remote, _code) = rt
        .block_on(engine.create(&server.url, GameKind::Xiangqi, &Value::Null, 0, 3, "Ann"))
        .unwrap();
    let kept = rt
        .block_on(qiguan_app::share::share(&mut engine, remote, None, 4))
        .unwrap();
    assert_eq!(kept.key, None, "its seat withdraws it");
    let path = kept.url().replacen(&server.url, "", 1);
    assert_eq!(api.get(&path).0, 200);
    rt.block_on(qiguan_app::share::withdraw(&mut engine, remote))
        .unwrap();
    assert_eq!(api.get(&path).0, 410);
}
