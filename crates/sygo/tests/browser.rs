//! The web app in a real browser: headless Chromium driven over WebDriver
//! (Debian's `chromium` and `chromedriver`, through the `fantoccini` crate),
//! against `sygo serve` started as a subprocess on a fresh database.
//!
//! The browser is installed by `scripts/install-browser.sh` when it is
//! missing (CI machines start without it); if that fails, the test fails
//! and says why.
//!
//! The games, clicked point by point as a person plays them (the sequences
//! were worked out with `sygo gtp`):
//!
//! - Sygo 9×9 on one page (hot-seat): placements played at once; Black's
//!   balance turn (G4 grown, A1 placed); White's growth turn A2, B1 with its
//!   pending stones, the group markers, a stone taken back, the hover
//!   preview of the capture and the capture itself (A1 reversed); a refused
//!   click with its reason; keyboard play; a pass.
//! - Hexsygo base 5 on one page: the balance turn, a placement from the
//!   keyboard with the hexagonal keys, a pass, and a three-stone growth turn
//!   that reverses the corner.
//! - An online game between two browser sessions (Black's and White's
//!   private links): each side's turn appears on the other's page without a
//!   reload, also after a reload.
//! - A game against the AI: its turns arrive, a hint, an analysis with
//!   ownership on the board.
//! - The games list, review turn by turn (buttons and keys), the record
//!   downloaded and uploaded again.
//!
//! Screenshots of both boards go to `target/screenshots/`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The longest a page may take to show what a step expects.
const WAIT: Duration = Duration::from_secs(15);

// ------------------------------------------------------------ processes

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sygo-browser-{tag}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process, killed on drop.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Installs Chromium and chromedriver if they are missing.
fn ensure_browser() {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return;
    }
    let script = root().join("scripts/install-browser.sh");
    eprintln!("browser test: installing chromium and chromedriver with {script:?}");
    let status = Command::new("bash")
        .arg(&script)
        .stdin(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("browser test: cannot run {script:?}: {e}"));
    assert!(
        status.success() && Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "browser test: scripts/install-browser.sh could not install chromium and chromedriver \
         ({status}); install Debian's `chromium` and `chromium-driver` packages and run the test again"
    );
}

/// `sygo serve` on a free port of the loopback with its own database.
struct Server {
    _child: Killed,
    url: String,
    _dir: TempDir,
}

impl Server {
    fn start() -> Server {
        let dir = TempDir::new("db");
        let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(dir.0.join("sygo.db"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sygo serve starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let child = Killed(child);
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let mut sent = false;
            // Read on to the end so that the server never blocks on a full pipe.
            while reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                if !sent && let Some(at) = line.find("http://") {
                    let url = line[at..].trim().trim_end_matches('/').to_string();
                    let _ = tx.send(url);
                    sent = true;
                }
                line.clear();
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("sygo serve prints the address to open within 30 s");
        Server {
            _child: child,
            url,
            _dir: dir,
        }
    }
}

/// A free TCP port on the loopback.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// chromedriver listening on a free port. Dropped (also when a step
/// panics), it is asked to shut down, which closes every browser it started;
/// killing it alone would leave them running.
struct Driver {
    child: Killed,
    port: u16,
    url: String,
    /// The browsers' profiles, removed after the browsers are gone.
    profiles: TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            let _ = stream.write_all(
                b"GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            );
            let _ = stream.read_to_end(&mut Vec::new());
        }
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.0.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Driver {
    fn start() -> Driver {
        let port = free_port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let child = Killed(child);
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen on port {port} within 20 s"
            );
            thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            port,
            url: format!("http://127.0.0.1:{port}"),
            profiles: TempDir::new("profiles"),
        }
    }
}

// ------------------------------------------------------------ the pages

/// One browser session (its own Chromium and profile) on the web app.
struct Page {
    client: Client,
    base: String,
    name: &'static str,
}

impl Page {
    async fn open(driver: &Driver, base: &str, name: &'static str) -> Page {
        let profile = driver.profiles.0.join(name.replace(' ', "-"));
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-extensions",
            "--window-size=1280,1000",
            "--force-device-scale-factor=1",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({"binary": CHROMIUM, "args": args}),
        );
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&driver.url)
            .await
            .unwrap_or_else(|e| panic!("a Chromium session through chromedriver: {e}"));
        Page {
            client,
            base: base.to_string(),
            name,
        }
    }

    async fn goto(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        self.client
            .goto(&url)
            .await
            .unwrap_or_else(|e| panic!("{}: open {url}: {e}", self.name));
    }

    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{}: script failed: {e}\n{script}", self.name))
    }

    /// What the page shows to explain a failure.
    async fn state(&self) -> String {
        let v = self
            .js(
                "const t = (id) => (document.getElementById(id) || {}).textContent || '';
                 return `path ${location.pathname}; to move: ${t('to-move')}; message: ${t('message')}; \
preview: ${t('preview')}; finish: ${t('finish-reason')}; announced: ${t('announce')}; stones: ${
                   [...document.querySelectorAll('[data-stone]')].map(e => e.dataset.stone + '=' + e.dataset.color + (e.dataset.pending ? '(pending)' : '')).join(' ')}`;",
            )
            .await;
        v.as_str().unwrap_or_default().to_string()
    }

    /// Waits until the JavaScript expression is true.
    async fn wait(&self, expr: &str, what: &str) {
        let script = format!("return !!({expr});");
        let start = Instant::now();
        loop {
            if self.js(&script).await == json!(true) {
                return;
            }
            if start.elapsed() > WAIT {
                panic!(
                    "{}: waited {WAIT:?} for {what} ({expr})\n{}",
                    self.name,
                    self.state().await
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn click(&self, css: &str) {
        let el = match self.client.find(Locator::Css(css)).await {
            Ok(el) => el,
            Err(e) => panic!("{}: no {css}: {e}\n{}", self.name, self.state().await),
        };
        if let Err(e) = el.click().await {
            self.screenshot("failure.png", true).await;
            panic!("{}: click {css}: {e}\n{}", self.name, self.state().await);
        }
    }

    /// A click on a point of the board.
    async fn point(&self, name: &str) {
        self.click(&format!(r#"[data-point="{name}"]"#)).await;
    }

    /// The mouse over a point.
    async fn hover(&self, name: &str) {
        // Scrolled first, so that a screenshot does not move the page under the mouse.
        self.js("window.scrollTo(0, 0); return true;").await;
        let el = self
            .client
            .find(Locator::Css(&format!(r#"[data-point="{name}"]"#)))
            .await
            .expect("the point");
        let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: el,
            duration: Some(Duration::from_millis(50)),
            x: 0.0,
            y: 0.0,
        });
        self.client
            .perform_actions(mouse)
            .await
            .expect("a mouse move");
    }

    /// Keys typed on the focused board.
    async fn keys(&self, keys: &[char]) {
        self.js("document.querySelector('svg.board').focus(); return true;")
            .await;
        let mut actions = KeyActions::new("keyboard".into());
        for &k in keys {
            actions = actions
                .then(KeyAction::Down { value: k })
                .then(KeyAction::Up { value: k });
        }
        self.client
            .perform_actions(actions)
            .await
            .expect("key presses");
    }

    async fn text(&self, css: &str) -> String {
        let v = self
            .js(&format!(
                "const e = document.querySelector({}); return e ? (e.value !== undefined && e.tagName === 'INPUT' ? e.value : e.textContent) : null;",
                json!(css)
            ))
            .await;
        v.as_str()
            .unwrap_or_else(|| panic!("{}: no {css}", self.name))
            .to_string()
    }

    /// Waits for a stone of `color` on `point` (not pending).
    async fn stone(&self, point: &str, color: &str) {
        self.wait(
            &format!(r#"document.querySelector('[data-stone="{point}"][data-color="{color}"]:not([data-pending])')"#),
            &format!("a {color} stone on {point}"),
        )
        .await;
    }

    async fn to_move(&self, color: &str) {
        self.wait(
            &format!(r#"document.querySelector('#to-move[data-to-move="{color}"]')"#),
            &format!("{color} to move"),
        )
        .await;
    }

    async fn pending(&self, point: &str, number: usize) {
        self.wait(
            &format!(
                r#"document.querySelector('[data-stone="{point}"][data-pending="{number}"]')"#
            ),
            &format!("{point} as pending stone {number}"),
        )
        .await;
    }

    async fn contains(&self, id: &str, text: &str) {
        self.wait(
            &format!(
                "(document.getElementById({}) || {{}}).textContent?.includes({})",
                json!(id),
                json!(text)
            ),
            &format!("#{id} saying {text:?}"),
        )
        .await;
    }

    /// Saves a screenshot of the board (or of the page) into target/screenshots/.
    async fn screenshot(&self, file: &str, whole_page: bool) {
        // An element's screenshot is cut wrongly when the page is scrolled.
        self.js("window.scrollTo(0, 0); return true;").await;
        let png = if whole_page {
            self.client.screenshot().await.expect("a screenshot")
        } else {
            let el = self
                .client
                .find(Locator::Css("svg.board"))
                .await
                .expect("the board");
            el.screenshot().await.expect("a screenshot of the board")
        };
        let dir = root().join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("target/screenshots");
        std::fs::write(dir.join(file), png).expect("the screenshot written");
    }

    /// Starts a game from the home page; returns its id. `black` and
    /// `white`: `None` for a person, `Some((level, time_ms))` for the AI.
    async fn new_game(
        &self,
        variant: &str,
        size: u32,
        black: Option<(u32, u32)>,
        white: Option<(u32, u32)>,
        online: bool,
    ) -> String {
        self.goto("/").await;
        self.wait("document.getElementById('start-game')", "the home page")
            .await;
        let side = |color: &str, spec: Option<(u32, u32)>| match spec {
            None => format!("set('{color}-kind', 'human');"),
            Some((level, time)) => {
                format!(
                    "set('{color}-kind', 'ai'); set('{color}-level', '{level}'); set('{color}-time', '{time}');"
                )
            }
        };
        let script = format!(
            "const set = (id, v) => {{ const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change')); }};
             const radio = document.querySelector('input[name=variant][value={variant}]');
             radio.checked = true; radio.dispatchEvent(new Event('change'));
             set('size', '{size}'); {} {}
             document.querySelector('input[name=where][value={}]').checked = true;
             return true;",
            side("black", black),
            side("white", white),
            if online { "online" } else { "hotseat" }
        );
        self.js(&script).await;
        self.click("#start-game").await;
        if online {
            self.wait(
                "!document.getElementById('links').hidden",
                "the private links",
            )
            .await;
            let link = self.text("#link-spectator").await;
            return link.rsplit('/').next().unwrap().to_string();
        }
        self.wait(
            "location.pathname.startsWith('/game/') && document.querySelector('svg.board')",
            "the game page",
        )
        .await;
        let path = self.js("return location.pathname;").await;
        path.as_str()
            .unwrap()
            .trim_start_matches("/game/")
            .to_string()
    }

    async fn close(self) {
        let _ = self.client.close().await;
    }
}

// ------------------------------------------------------------ the games

/// Sygo 9×9, two people on one page.
async fn square_hot_seat(p: &Page) -> String {
    let id = p.new_game("sygo", 9, None, None, false).await;
    p.wait(
        "document.querySelector('svg.board[data-board=square]')",
        "the square board",
    )
    .await;
    p.wait(
        "document.querySelectorAll('[data-point]').length === 81",
        "81 points",
    )
    .await;
    p.to_move("white").await;

    // Placements are played at once.
    p.point("A3").await;
    p.stone("A3", "white").await;
    p.to_move("black").await;
    p.wait(
        "document.getElementById('balance-note').hidden",
        "no balance note while Black has no group",
    )
    .await;
    p.contains("announce", "White placed A3").await;
    p.point("G3").await;
    p.stone("G3", "black").await;
    p.point("C1").await;
    p.stone("C1", "white").await;
    p.to_move("black").await;

    // Black's balance turn: G4 grows G3, then A1 is placed.
    p.wait(
        "!document.getElementById('balance-note').hidden",
        "the balance note",
    )
    .await;
    p.point("G4").await;
    p.pending("G4", 1).await;
    p.wait(
        r#"document.querySelector('rect.allow.placement[data-allowed="A1"]')"#,
        "A1 offered as the placement",
    )
    .await;
    p.wait(
        "document.getElementById('finish-button').disabled === false",
        "Finish enabled",
    )
    .await;
    p.point("A1").await;
    p.pending("A1", 2).await;
    p.click("#finish-button").await;
    p.stone("A1", "black").await;
    p.stone("G4", "black").await;
    p.to_move("white").await;
    p.wait(
        "document.getElementById('balance-note').hidden",
        "no balance note for White",
    )
    .await;

    // White's growth turn A2, B1 reverses A1.
    p.point("A2").await;
    p.pending("A2", 1).await;
    p.wait(
        r#"document.querySelector('[data-mark="grown"][data-at="A3"]')"#,
        "A3's group marked grown",
    )
    .await;
    p.wait(
        r#"document.querySelector('[data-mark="fresh"][data-at="C1"]')"#,
        "C1's group marked fresh",
    )
    .await;
    p.wait(
        r#"document.querySelector('circle.allow.growth[data-allowed="B1"]')"#,
        "B1 offered",
    )
    .await;
    p.wait(
        "document.getElementById('finish-button').disabled === false",
        "Finish enabled",
    )
    .await;
    // Taken back by a second click, then played again.
    p.point("A2").await;
    p.wait("!document.querySelector('[data-pending]')", "A2 taken back")
        .await;
    p.point("A2").await;
    p.pending("A2", 1).await;
    p.hover("B1").await;
    p.wait(
        r#"document.querySelector('[data-would-reverse="A1"]')"#,
        "the preview marking A1",
    )
    .await;
    p.contains("preview", "reversing A1").await;
    p.screenshot("square-9-building.png", false).await;
    p.point("B1").await;
    p.pending("B1", 2).await;
    p.wait(
        r#"document.querySelector('[data-stone="A1"][data-color="white"]')"#,
        "A1 reversed while building",
    )
    .await;
    p.wait(
        r#"document.querySelector('[data-mark="frozen"][data-at="A3"]')"#,
        "the captors frozen",
    )
    .await;
    p.screenshot("square-9-capture.png", false).await;
    p.click("#finish-button").await;
    p.to_move("black").await;
    p.stone("A1", "white").await;
    p.wait(
        r#"document.querySelector('[data-mark="reversed"][data-at="A1"]')"#,
        "A1 marked reversed",
    )
    .await;
    p.contains("announce", "White grew A2 and B1, reversing A1")
        .await;

    // A refused click, with its reason.
    p.point("G5").await;
    p.pending("G5", 1).await;
    p.point("G2").await;
    p.contains("message", "second time").await;
    p.wait(
        "!document.querySelector('[data-stone=\"G2\"]')",
        "G2 not played",
    )
    .await;
    p.click("#finish-button").await;
    p.stone("G5", "black").await;
    p.to_move("white").await;
    p.wait(
        "document.getElementById('message').textContent === ''",
        "the message cleared",
    )
    .await;

    // The keyboard: the cursor starts at the centre, E5.
    p.keys(&[Key::Enter.into()]).await;
    p.stone("E5", "white").await;
    p.to_move("black").await;
    p.keys(&[
        Key::Right.into(),
        Key::Right.into(),
        Key::Up.into(),
        Key::Enter.into(),
    ])
    .await;
    p.pending("G6", 1).await;
    p.keys(&['f']).await;
    p.stone("G6", "black").await;
    p.to_move("white").await;

    // A pass, territory shown.
    p.click("#pass-button").await;
    p.to_move("black").await;
    p.contains("announce", "White passed").await;
    p.click("#territory-toggle").await;
    p.wait(
        "document.getElementById('territory-toggle').checked",
        "territory shown",
    )
    .await;
    p.js("document.activeElement.blur(); return true;").await;
    p.screenshot("square-9.png", false).await;
    p.screenshot("square-9-page.png", true).await;
    id
}

/// Hexsygo base 5, two people on one page.
async fn hex_hot_seat(p: &Page) {
    p.new_game("hexsygo", 5, None, None, false).await;
    p.wait(
        "document.querySelector('svg.board[data-board=hex]')",
        "the hexagonal board",
    )
    .await;
    p.wait(
        "document.querySelectorAll('[data-point]').length === 61",
        "61 cells",
    )
    .await;
    p.point("A3").await;
    p.stone("A3", "white").await;
    p.point("E5").await;
    p.stone("E5", "black").await;
    p.point("C1").await;
    p.stone("C1", "white").await;
    // The balance turn.
    p.wait(
        "!document.getElementById('balance-note').hidden",
        "the balance note",
    )
    .await;
    p.point("E6").await;
    p.pending("E6", 1).await;
    p.point("A1").await;
    p.pending("A1", 2).await;
    p.click("#finish-button").await;
    p.stone("A1", "black").await;
    p.to_move("white").await;
    // The keyboard on the hexagon: Z twice goes down-left from E5 to C3.
    p.keys(&['z', 'z']).await;
    p.wait(
        r#"document.querySelector('[data-cursor="C3"]')"#,
        "the cursor on C3",
    )
    .await;
    p.keys(&[Key::Enter.into()]).await;
    p.stone("C3", "white").await;
    p.to_move("black").await;
    p.click("#pass-button").await;
    p.to_move("white").await;
    // Three stones, three groups grown, the corner reversed.
    p.point("A2").await;
    p.pending("A2", 1).await;
    p.point("B1").await;
    p.pending("B1", 2).await;
    p.hover("B2").await;
    p.wait(
        r#"document.querySelector('[data-would-reverse="A1"]')"#,
        "the preview marking A1",
    )
    .await;
    p.screenshot("hex-5-building.png", false).await;
    p.point("B2").await;
    p.pending("B2", 3).await;
    p.click("#finish-button").await;
    p.to_move("black").await;
    p.stone("A1", "white").await;
    p.wait(
        r#"document.querySelector('[data-mark="reversed"][data-at="A1"]')"#,
        "A1 marked reversed",
    )
    .await;
    p.contains("announce", "White grew A2, B1 and B2, reversing A1")
        .await;
    p.js("document.activeElement.blur(); return true;").await;
    p.screenshot("hex-5.png", false).await;
    p.screenshot("hex-5-page.png", true).await;
    p.client
        .set_window_size(400, 860)
        .await
        .expect("a phone-sized window");
    tokio::time::sleep(Duration::from_millis(300)).await;
    p.screenshot("hex-5-phone.png", true).await;
    p.client
        .set_window_size(1280, 1000)
        .await
        .expect("the window size back");
}

/// Two people online, each in a browser of their own.
async fn online(p1: &Page, p2: &Page) {
    p1.new_game("sygo", 9, None, None, true).await;
    p1.screenshot("home-online-links.png", true).await;
    let black = p1.text("#link-black").await;
    let white = p1.text("#link-white").await;
    assert!(
        black.contains("#token="),
        "Black's link carries a token: {black}"
    );
    p1.goto(&black).await;
    p2.goto(&white).await;
    p1.contains("role", "You play Black").await;
    p2.contains("role", "You play White").await;
    p2.point("E5").await;
    p2.stone("E5", "white").await;
    // On Black's page without a reload.
    p1.stone("E5", "white").await;
    p1.to_move("black").await;
    p1.contains("announce", "White placed E5").await;
    p1.point("C3").await;
    p2.stone("C3", "black").await;
    p2.to_move("white").await;
    // Not Black's turn now.
    p1.point("D4").await;
    p1.contains("message", "wait for your opponent").await;
    // After a reload the page is live again.
    p1.client.refresh().await.expect("a reload");
    p1.stone("C3", "black").await;
    p1.stone("E5", "white").await;
    p2.point("E6").await;
    p2.pending("E6", 1).await;
    p2.click("#finish-button").await;
    p1.stone("E6", "white").await;
    p1.to_move("black").await;
}

/// A person (Black) against the AI (White).
async fn against_ai(p: &Page) {
    p.new_game("sygo", 9, None, Some((1, 200)), false).await;
    // White (the AI) moves first.
    p.wait(
        "document.querySelectorAll('[data-color=white]').length >= 1",
        "the AI's first turn",
    )
    .await;
    p.to_move("black").await;
    let vacant = p
        .js("return ['A9','J1','A1','J9','E5'].find(q => !document.querySelector(`[data-stone=\"${q}\"]`));")
        .await;
    let vacant = vacant.as_str().expect("a vacant point").to_string();
    p.point(&vacant).await;
    p.stone(&vacant, "black").await;
    p.wait(
        "document.querySelectorAll('#moves li[data-turn]').length >= 3",
        "the AI's answer",
    )
    .await;
    p.to_move("black").await;
    p.click("#hint-button").await;
    p.contains("ai-out", "Hint for Black").await;
    p.wait(
        "document.querySelector('[data-hint]')",
        "the hint on the board",
    )
    .await;
    p.click("#analyse-button").await;
    p.contains("ai-out", "win probability").await;
    p.wait(
        "document.querySelector('[data-own]')",
        "ownership on the board",
    )
    .await;
    p.screenshot("square-9-analysis.png", false).await;
}

/// The games list, review, download and upload.
async fn review(p: &Page, id: &str) {
    p.goto("/games").await;
    p.wait(
        &format!(r#"document.querySelector('a[href="/game/{id}"]')"#),
        "the game in the list",
    )
    .await;
    p.wait(
        "document.querySelectorAll('tr[data-game]').length >= 4",
        "every game listed",
    )
    .await;
    p.click(&format!(r#"a[href="/game/{id}"]"#)).await;
    p.wait(
        "document.querySelector('[data-review=first]')",
        "the review controls",
    )
    .await;
    let stones = p
        .js("return document.querySelectorAll('[data-stone]').length;")
        .await;
    p.click("[data-review=first]").await;
    p.wait(
        "document.querySelectorAll('[data-stone]').length === 0",
        "the empty board",
    )
    .await;
    p.contains("shown-turn", "Turn 0 of").await;
    p.click("[data-review=next]").await;
    p.stone("A3", "white").await;
    p.wait(
        "document.querySelectorAll('[data-stone]').length === 1",
        "one stone after turn 1",
    )
    .await;
    p.keys(&['.']).await;
    p.stone("G3", "black").await;
    p.contains("shown-turn", "Turn 2 of").await;
    p.keys(&[Key::End.into()]).await;
    p.wait(
        &format!("document.querySelectorAll('[data-stone]').length === {stones}"),
        "the last position",
    )
    .await;
    let record = p
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(document.querySelector('a.download').href).then(r => r.text()).then(done, e => done('ERROR ' + e));",
            vec![],
        )
        .await
        .expect("the record downloaded");
    let record = record.as_str().expect("text").to_string();
    assert!(
        record.contains("GM[400]") && record.contains("VR[sygo]"),
        "the record: {record}"
    );
    // A broken record is refused with its reason; the record itself is
    // uploaded again for review.
    p.goto("/").await;
    p.wait("document.getElementById('record-text')", "the upload form")
        .await;
    p.js("document.getElementById('record-text').value = '(;GM[400]SZ[9];W[zz])'; return true;")
        .await;
    p.click("#upload-button").await;
    p.wait(
        "document.getElementById('upload-message').textContent.length > 0",
        "the upload refused",
    )
    .await;
    p.client
        .execute(
            "document.getElementById('record-text').value = arguments[0]; return true;",
            vec![json!(record)],
        )
        .await
        .expect("the record pasted");
    p.click("#upload-button").await;
    p.wait(
        "location.pathname.startsWith('/game/') && document.querySelector('svg.board')",
        "the uploaded game",
    )
    .await;
    p.contains("role", "uploaded").await;
    p.screenshot("review-uploaded.png", true).await;
    p.wait(
        &format!("document.querySelectorAll('[data-stone]').length === {stones}"),
        "the uploaded position",
    )
    .await;
    p.stone("A1", "white").await;
}

#[test]
fn the_web_app_in_a_real_browser() {
    ensure_browser();
    let started = Instant::now();
    let server = Server::start();
    let driver = Driver::start();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let p1 = Page::open(&driver, &server.url, "page 1").await;
        let id = square_hot_seat(&p1).await;
        eprintln!("square board: done at {:?}", started.elapsed());
        hex_hot_seat(&p1).await;
        eprintln!("hexagonal board: done at {:?}", started.elapsed());
        let p2 = Page::open(&driver, &server.url, "page 2").await;
        online(&p1, &p2).await;
        p2.close().await;
        eprintln!("online: done at {:?}", started.elapsed());
        against_ai(&p1).await;
        eprintln!("against the AI: done at {:?}", started.elapsed());
        review(&p1, &id).await;
        eprintln!("review: done at {:?}", started.elapsed());
        p1.close().await;
    });
}
