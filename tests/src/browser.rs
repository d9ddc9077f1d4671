//! A real headless Chromium (Debian's `chromium`, installed by `scripts/install-deps
//! --browser`), driven through its DevTools protocol over a WebSocket: open a page, run script
//! in it, press keys, take screenshots, and collect every console error and uncaught exception
//! the page produced.

use base64::Engine;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tungstenite::{Message, WebSocket, stream::MaybeTlsStream};

/// Where Chromium is looked for.
const PROGRAMS: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// A running headless browser with one page open.
#[allow(missing_debug_implementations)] // a process and a socket: nothing to show
pub struct Browser {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    /// Console errors, uncaught exceptions and failed loads the page reported, in order.
    pub errors: Vec<String>,
    loaded: bool,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts Chromium headless with a fresh profile and opens a blank page. Panics with what
    /// to install when there is no Chromium.
    pub fn start() -> Browser {
        let program = PROGRAMS
            .iter()
            .find(|p| {
                Command::new(p)
                    .arg("--version")
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            })
            .unwrap_or_else(|| {
                panic!("no Chromium found: install it with `scripts/install-deps --browser`")
            });
        let profile = tempfile::tempdir().expect("a profile folder");
        let mut child = Command::new(program)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--remote-debugging-port=0",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("Chromium starts");
        // Chromium says where its DevTools listen on stderr once it is ready.
        let stderr = child.stderr.take().expect("piped stderr");
        let mut lines = BufReader::new(stderr).lines();
        let url = loop {
            let line = lines
                .next()
                .expect("Chromium says where its DevTools listen")
                .expect("Chromium's output");
            if let Some(at) = line.find("ws://") {
                break line[at..].trim().to_owned();
            }
        };
        // Keep reading its output so that it never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        let (socket, _) = tungstenite::connect(url.as_str()).expect("DevTools connects");
        if let MaybeTlsStream::Plain(tcp) = socket.get_ref() {
            tcp.set_read_timeout(Some(Duration::from_secs(60)))
                .expect("a read timeout");
        }
        let mut browser = Browser {
            child,
            socket,
            session: String::new(),
            next_id: 0,
            errors: Vec::new(),
            loaded: false,
            _profile: profile,
        };
        let target = browser.call_browser("Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().expect("a target").to_owned();
        let attached = browser.call_browser(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        browser.session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_owned();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(domain, json!({}));
        }
        browser
    }

    fn send(&mut self, method: &str, params: Value, session: bool) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if session {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .expect("DevTools takes the command");
        loop {
            let reply = self.read();
            if reply["id"] == id {
                assert!(
                    reply.get("error").is_none(),
                    "{method} failed: {}",
                    reply["error"]
                );
                return reply["result"].clone();
            }
            self.note(&reply);
        }
    }

    fn read(&mut self) -> Value {
        loop {
            match self.socket.read().expect("DevTools answers") {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).expect("DevTools speaks JSON");
                }
                Message::Close(_) => panic!("DevTools closed"),
                _ => {}
            }
        }
    }

    /// Keeps what an event says about errors and loading.
    fn note(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str().unwrap_or("") {
            "Page.loadEventFired" => self.loaded = true,
            "Runtime.exceptionThrown" => self.errors.push(format!(
                "exception: {}",
                params["exceptionDetails"]["exception"]["description"]
                    .as_str()
                    .or(params["exceptionDetails"]["text"].as_str())
                    .unwrap_or("?")
            )),
            "Runtime.consoleAPICalled"
                if matches!(params["type"].as_str(), Some("error" | "assert")) =>
            {
                self.errors.push(format!("console: {}", params["args"]));
            }
            "Log.entryAdded" if params["entry"]["level"] == "error" => {
                self.errors.push(format!(
                    "log: {} {}",
                    params["entry"]["text"].as_str().unwrap_or("?"),
                    params["entry"]["url"].as_str().unwrap_or("")
                ));
            }
            _ => {}
        }
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, false)
    }

    /// Runs a DevTools command on the page and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, true)
    }

    /// Opens `url` and waits for its load event.
    pub fn open(&mut self, url: &str) {
        self.loaded = false;
        let navigated = self.call("Page.navigate", json!({"url": url}));
        assert!(
            navigated.get("errorText").is_none(),
            "{url}: {}",
            navigated["errorText"]
        );
        while !self.loaded {
            let event = self.read();
            self.note(&event);
        }
    }

    /// The value of a script expression (awaited when it is a promise).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// Presses and releases a key (`ArrowLeft`, `Home`, …) as a person would.
    pub fn press(&mut self, key: &str) {
        let code = match key {
            "ArrowLeft" => 37,
            "ArrowRight" => 39,
            "Home" => 36,
            "End" => 35,
            _ => 0,
        };
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Sets the window's size in CSS pixels (a phone: `mobile`).
    pub fn size(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// A PNG of what the window shows.
    pub fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("picture data"))
            .expect("base64")
    }

    /// Takes what has happened so far (errors included) from the socket without waiting.
    pub fn settle(&mut self) {
        // A round trip: every event sent before its answer has been noted.
        self.eval("0");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
