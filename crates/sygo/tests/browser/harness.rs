//! The shared harness of the browser tests: `sygo serve` as a subprocess on
//! a fresh database, chromedriver, and browser sessions ([`Page`]) with the
//! helpers every scenario uses.
//!
//! Chromium and chromedriver are found from the `CHROMIUM` and
//! `CHROMEDRIVER` environment variables, else on `PATH` (`chromium`,
//! `chromium-browser`, `google-chrome`; `chromedriver`); when neither has
//! them, `scripts/install-browser.sh` installs Debian's packages (CI
//! machines start without a browser), and the test fails saying why if it
//! cannot.
//!
//! Each test calls [`run`], which gives it a server of its own (so no test
//! sees another's games) and the chromedriver shared by the tests running
//! at the same time. Sessions are reused: when a test ends, each session it
//! opened is cleared (one tab, a blank page, the storage of its server's
//! site removed) and taken by a later test, or closed when that cannot be
//! done; a new server has a new port, so a new site with nothing stored.
//! A test opens as many sessions as it needs, as a desktop
//! browser ([`Page::desktop`], mouse and keyboard) or a phone
//! ([`Page::phone`]: a phone's viewport and pixel ratio, touch events only).

#![allow(dead_code)] // not every scenario file uses every helper

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, TouchActions,
};
use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

/// The longest a page may take to show what a step expects (generous: a
/// loaded machine runs two browsers and two servers on two cores; a page
/// that is right shows it long before).
pub const WAIT: Duration = Duration::from_secs(30);

// ------------------------------------------------------------ processes

/// The workspace's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
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

/// The browser's two programs.
#[derive(Clone, Debug)]
pub struct Browser {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

/// The first of `names` found as an executable file on `PATH`.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// Chromium and chromedriver from the environment variables, else on PATH.
fn find_browser() -> Option<Browser> {
    let from_env = |var: &str| std::env::var_os(var).map(PathBuf::from);
    let chromium = from_env("CHROMIUM")
        .or_else(|| on_path(&["chromium", "chromium-browser", "google-chrome"]))?;
    let chromedriver = from_env("CHROMEDRIVER").or_else(|| on_path(&["chromedriver"]))?;
    Some(Browser {
        chromium,
        chromedriver,
    })
}

/// The browser, installed by `scripts/install-browser.sh` when it is found
/// nowhere (once per test process).
pub fn browser() -> &'static Browser {
    static BROWSER: OnceLock<Browser> = OnceLock::new();
    BROWSER.get_or_init(|| {
        if let Some(found) = find_browser() {
            return found;
        }
        let script = root().join("scripts/install-browser.sh");
        eprintln!("browser tests: installing chromium and chromedriver with {script:?}");
        let status = Command::new("bash")
            .arg(&script)
            .stdin(Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("browser tests: cannot run {script:?}: {e}"));
        match find_browser() {
            Some(found) if status.success() => found,
            _ => panic!(
                "browser tests: no Chromium and chromedriver (set CHROMIUM and CHROMEDRIVER, or \
                 put them on PATH), and scripts/install-browser.sh could not install them \
                 ({status}); install Debian's `chromium` and `chromium-driver` packages and run \
                 the tests again"
            ),
        }
    })
}

/// `sygo serve` on a free port of the loopback with its own database.
pub struct Server {
    child: Killed,
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub url: String,
    /// The database's directory (kept for a restart on the same database).
    pub dir: TempDir,
}

impl Server {
    /// A server on a new database.
    pub fn start() -> Server {
        Server::start_in(TempDir::new("db"))
    }

    /// A server on the database in `dir` (new or left by another server).
    pub fn start_in(dir: TempDir) -> Server {
        Server::start_on(dir, "127.0.0.1:0")
    }

    /// Kills the server (SIGKILL) and starts another on the same database
    /// and the same port: the pages' site, what it stores and their live
    /// streams' address stay, and an `EventSource` reconnects by itself.
    pub fn restart(self) -> Server {
        let port = self.url.rsplit(':').next().expect("a port").to_string();
        let dir = self.kill();
        Server::start_on(dir, &format!("127.0.0.1:{port}"))
    }

    /// A server on the database in `dir`, listening on `addr`.
    fn start_on(dir: TempDir, addr: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sygo"))
            .args(["serve", "--addr", addr, "--db"])
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
        Server { child, url, dir }
    }

    /// Kills the server (SIGKILL) and gives back its database's directory.
    pub fn kill(self) -> TempDir {
        let Server { child, dir, .. } = self;
        drop(child);
        dir
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
pub struct Driver {
    child: Killed,
    port: u16,
    url: String,
    /// The browsers' profiles, removed after the browsers are gone.
    profiles: TempDir,
    /// Sessions that a finished test left clean, for the next test to take:
    /// starting a Chromium costs more than most scenarios.
    idle: Mutex<Vec<(Device, Client)>>,
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
        let child = Command::new(&browser().chromedriver)
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
            idle: Mutex::new(Vec::new()),
        }
    }

    /// An idle session of the kind asked for, if a finished test left one.
    fn take_idle(&self, device: Device) -> Option<Client> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        let at = idle.iter().position(|(d, _)| *d == device)?;
        Some(idle.swap_remove(at).1)
    }

    /// Gives a finished test's session to the next test if it can be made
    /// as good as new: one tab, on a blank page, the storage of the sites it
    /// visited cleared (each test's server has a port, so a site, of its
    /// own). A session whose browser a test changed through DevTools (a
    /// blocked URL, a phone turned on its side, a slowed CPU), or that does
    /// not answer, is closed instead.
    async fn recycle(&self, opened: Opened) {
        if !opened.changed.load(Ordering::Relaxed) && Driver::reset(&opened).await {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.push((opened.device, opened.client));
        } else {
            // A session the test closed itself answers with an error.
            let _ = opened.client.close().await;
        }
    }

    async fn reset(opened: &Opened) -> bool {
        let client = &opened.client;
        let Ok(windows) = client.windows().await else {
            return false;
        };
        if windows.len() != 1 {
            return false;
        }
        // The site it was opened on, and the one it shows now (a test may
        // have gone on to a restarted server's address).
        let mut origins = vec![opened.site.clone()];
        if let Ok(url) = client.current_url().await
            && url.scheme().starts_with("http")
        {
            origins.push(url.origin().ascii_serialization());
        }
        for origin in &origins {
            let cleared = crate::cdp::send(
                client,
                "Storage.clearDataForOrigin",
                json!({"origin": origin, "storageTypes": "all"}),
            )
            .await;
            if cleared.is_err() {
                return false;
            }
        }
        client.goto("about:blank").await.is_ok()
    }

    /// The chromedriver of the tests running now, started by the first of
    /// them and shut down when the last one drops it.
    fn shared() -> Arc<Driver> {
        static SLOT: Mutex<Weak<Driver>> = Mutex::new(Weak::new());
        let mut slot = SLOT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(driver) = slot.upgrade() {
            return driver;
        }
        let driver = Arc::new(Driver::start());
        *slot = Arc::downgrade(&driver);
        driver
    }
}

/// A session a test opened, as the harness keeps it to recycle it.
struct Opened {
    client: Client,
    device: Device,
    /// The site the session was opened on.
    site: String,
    /// Set when the test changed the browser itself through DevTools.
    changed: Arc<AtomicBool>,
}

// ------------------------------------------------------------ a test

/// What a test runs against: its own server, the shared chromedriver.
pub struct Env {
    pub server: Server,
    driver: Arc<Driver>,
    /// Every session the test opened, recycled or closed when it ends: a
    /// page left open would keep its Chromium running (and polling a server
    /// that is gone) until the last test sharing the driver ends.
    opened: Mutex<Vec<Opened>>,
}

impl Env {
    /// A desktop browser (1280×1000, mouse and keyboard) on the server.
    pub async fn desktop(&self, name: &str) -> Page {
        self.open(&self.server.url, name, Device::Desktop).await
    }

    /// A phone (390×844 CSS px at pixel ratio 3, touch events only).
    pub async fn phone(&self, name: &str) -> Page {
        self.open(&self.server.url, name, Device::Phone).await
    }

    /// A session of the given kind on another address (a restarted server).
    pub async fn page_at(&self, base: &str, name: &str, device: Device) -> Page {
        self.open(base, name, device).await
    }

    async fn open(&self, base: &str, name: &str, device: Device) -> Page {
        let page = Page::open(&self.driver, base, name, device).await;
        self.opened
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Opened {
                client: page.client.clone(),
                device,
                site: base.to_string(),
                changed: page.changed.clone(),
            });
        page
    }
}

/// The runtime of every test's WebDriver clients. One for all tests, so
/// that a session (whose connection lives on the runtime that opened it)
/// can pass from a finished test to the next.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

/// Runs one browser scenario: a server of its own, the shared chromedriver
/// and its idle sessions; the sessions it opened are left for the next
/// scenario when they can be made as good as new.
pub fn run(test: impl AsyncFnOnce(&Env)) {
    browser();
    let env = Env {
        server: Server::start(),
        driver: Driver::shared(),
        opened: Mutex::new(Vec::new()),
    };
    runtime().block_on(test(&env));
    let opened = std::mem::take(&mut *env.opened.lock().unwrap_or_else(|e| e.into_inner()));
    runtime().block_on(async {
        for session in opened {
            env.driver.recycle(session).await;
        }
    });
}

// ------------------------------------------------------------ the pages

/// A press of a mouse's button or of a finger at `(dx, dy)` CSS px from the
/// centre of `el`, held for `hold` if given.
fn press<S: InputSource<Action = PointerAction>>(
    source: S,
    el: Element,
    (dx, dy): (f64, f64),
    hold: Option<Duration>,
) -> S {
    let source = source
        .then(PointerAction::MoveToElement {
            element: el,
            duration: None,
            x: dx,
            y: dy,
        })
        .then(PointerAction::Down {
            button: fantoccini::actions::MOUSE_BUTTON_LEFT,
        });
    let source = match hold {
        Some(duration) => source.then(PointerAction::Pause { duration }),
        None => source,
    };
    source.then(PointerAction::Up {
        button: fantoccini::actions::MOUSE_BUTTON_LEFT,
    })
}

/// How a session is seen by the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// A desktop window of 1280×1000 with a mouse.
    Desktop,
    /// A phone: 390×844 CSS px, pixel ratio 3, a mobile user agent, touch.
    Phone,
}

/// One browser session (its own Chromium and profile, new or left clean by
/// an earlier test) on the web app.
pub struct Page {
    pub client: Client,
    pub base: String,
    pub name: String,
    pub device: Device,
    /// Set when the test changes the browser through DevTools (see
    /// [`crate::cdp::cdp`]): the session is then not given to another test.
    pub changed: Arc<AtomicBool>,
}

impl Page {
    async fn open(driver: &Driver, base: &str, name: &str, device: Device) -> Page {
        let client = match driver.take_idle(device) {
            Some(client) => client,
            None => Page::start(driver, name, device).await,
        };
        Page {
            client,
            base: base.to_string(),
            name: name.to_string(),
            device,
            changed: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A new session: its own Chromium and profile.
    async fn start(driver: &Driver, name: &str, device: Device) -> Client {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let profile = driver.profiles.0.join(format!(
            "{}-{}",
            name.replace(' ', "-"),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let mut args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-default-apps".into(),
            "--disable-extensions".into(),
            format!("--user-data-dir={}", profile.display()),
        ];
        let mut options = json!({"binary": browser().chromium});
        match device {
            Device::Desktop => {
                args.push("--window-size=1280,1000".into());
                args.push("--force-device-scale-factor=1".into());
            }
            Device::Phone => {
                options["mobileEmulation"] = json!({
                    "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0, "touch": true, "mobile": true},
                    "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 \
                                  (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
                });
            }
        }
        options["args"] = json!(args);
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert("goog:chromeOptions".into(), options);
        ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&driver.url)
            .await
            .unwrap_or_else(|e| panic!("a Chromium session through chromedriver: {e}"))
    }

    pub async fn goto(&self, path: &str) {
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

    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{}: script failed: {e}\n{script}", self.name))
    }

    /// What the page shows to explain a failure.
    pub async fn state(&self) -> String {
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

    /// Waits until the script returns something other than `null`, and
    /// returns that: what the page shows read in the same moment as the
    /// condition, not in round trips after it.
    pub async fn value_when(&self, script: &str, what: &str) -> Value {
        let start = Instant::now();
        loop {
            let value = self.js(script).await;
            if !value.is_null() {
                return value;
            }
            if start.elapsed() > WAIT {
                panic!(
                    "{}: waited {WAIT:?} for {what}\n{}",
                    self.name,
                    self.state().await
                );
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Waits until the JavaScript expression is true.
    pub async fn wait(&self, expr: &str, what: &str) {
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
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The element matched by `css` (a failure says what the page shows).
    pub async fn find(&self, css: &str) -> Element {
        match self.client.find(Locator::Css(css)).await {
            Ok(el) => el,
            Err(e) => panic!("{}: no {css}: {e}\n{}", self.name, self.state().await),
        }
    }

    /// A click on the element matched by `css`, as the device makes it: the
    /// mouse on a desktop, a tap (touch events only) on a phone.
    pub async fn click(&self, css: &str) {
        if self.device == Device::Phone {
            return self.tap(css).await;
        }
        self.act_on(css, "click", |el| async move { el.click().await })
            .await;
    }

    /// A tap of a finger on the centre of the element matched by `css`
    /// (scrolled into view first): touch pointer events, no mouse.
    pub async fn tap(&self, css: &str) {
        self.tap_at(css, 0.0, 0.0).await;
    }

    /// A tap `dx`, `dy` CSS px away from the centre of the element.
    pub async fn tap_at(&self, css: &str, dx: f64, dy: f64) {
        let client = &self.client;
        self.act_on(css, "tap", |el| async move {
            client
                .execute(
                    "arguments[0].scrollIntoView({block: 'center', inline: 'center'}); return true;",
                    vec![serde_json::to_value(&el).expect("an element as JSON")],
                )
                .await?;
            let finger = press(
                TouchActions::new("finger".into()),
                el,
                (dx, dy),
                None,
            );
            client.perform_actions(finger).await
        })
        .await;
    }

    /// Does `act` to the element matched by `css`; a failure says what the
    /// page shows, with a screenshot. The page may redraw the element
    /// between finding and acting on it (a list rebuilt when an answer
    /// arrives): it is then found again.
    async fn act_on<F, Fut>(&self, css: &str, verb: &str, act: F)
    where
        F: Fn(Element) -> Fut,
        Fut: std::future::Future<Output = Result<(), fantoccini::error::CmdError>>,
    {
        let mut tries = 0;
        loop {
            let el = self.find(css).await;
            match act(el).await {
                Ok(()) => return,
                Err(e) if tries < STALE_RETRIES && is_stale(&e) => tries += 1,
                Err(e) => {
                    self.screenshot(
                        &format!("failure-{}.png", self.name.replace(' ', "-")),
                        true,
                    )
                    .await;
                    panic!("{}: {verb} {css}: {e}\n{}", self.name, self.state().await);
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A click (a tap on a phone) `dx`, `dy` CSS px away from the centre of
    /// the element matched by `css`.
    pub async fn click_at(&self, css: &str, dx: f64, dy: f64) {
        if self.device == Device::Phone {
            return self.tap_at(css, dx, dy).await;
        }
        let el = self.find(css).await;
        let mouse = press(MouseActions::new("mouse".into()), el, (dx, dy), None);
        if let Err(e) = self.client.perform_actions(mouse).await {
            panic!(
                "{}: click {css} at {dx}, {dy}: {e}\n{}",
                self.name,
                self.state().await
            );
        }
    }

    /// A click on a point of the board.
    pub async fn point(&self, name: &str) {
        self.click(&format!(r#"[data-point="{name}"]"#)).await;
    }

    /// The mouse over a point.
    pub async fn hover(&self, name: &str) {
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
    pub async fn keys(&self, keys: &[char]) {
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

    pub async fn text(&self, css: &str) -> String {
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
    pub async fn stone(&self, point: &str, color: &str) {
        self.wait(
            &format!(r#"document.querySelector('[data-stone="{point}"][data-color="{color}"]:not([data-pending])')"#),
            &format!("a {color} stone on {point}"),
        )
        .await;
    }

    pub async fn to_move(&self, color: &str) {
        self.wait(
            &format!(r#"document.querySelector('#to-move[data-to-move="{color}"]')"#),
            &format!("{color} to move"),
        )
        .await;
    }

    pub async fn pending(&self, point: &str, number: usize) {
        self.wait(
            &format!(
                r#"document.querySelector('[data-stone="{point}"][data-pending="{number}"]')"#
            ),
            &format!("{point} as pending stone {number}"),
        )
        .await;
    }

    pub async fn contains(&self, id: &str, text: &str) {
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
    pub async fn screenshot(&self, file: &str, whole_page: bool) {
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

    /// Pastes a record into the home page's upload form and sends it, as a
    /// person does (the page then opens the game, or says why not).
    pub async fn paste_record(&self, record: &str) {
        self.goto("/").await;
        self.wait("document.getElementById('record-text')", "the upload form")
            .await;
        self.client
            .execute(
                "document.getElementById('record-text').value = arguments[0]; return true;",
                vec![json!(record)],
            )
            .await
            .expect("the record pasted");
        self.click("#upload-button").await;
    }

    /// Starts a game from the home page; returns its id. `black` and
    /// `white`: `None` for a person, `Some((level, time_ms))` for the AI
    /// (with both the AI, Black's settings are used). Two people play on
    /// this page, or `online` (then this browser plays Black).
    pub async fn new_game(
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
        // The three ways to play: against the AI (the person's side, the
        // AI's level and time), two people here, or online.
        let (mode, my_side, ai) = match (black, white) {
            (None, None) => (if online { "online" } else { "hotseat" }, "black", None),
            (None, Some(ai)) => ("ai", "black", Some(ai)),
            (Some(ai), None) => ("ai", "white", Some(ai)),
            (Some(ai), Some(_)) => ("ai", "none", Some(ai)),
        };
        let ai = ai
            .map(|(level, time)| format!("set('ai-level', '{level}'); set('ai-time', '{time}');"))
            .unwrap_or_default();
        let script = format!(
            "const set = (id, v) => {{ const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('change', {{bubbles: true}})); }};
             const check = (input) => {{ input.checked = true; input.dispatchEvent(new Event('change', {{bubbles: true}})); }};
             check(document.querySelector('input[name=variant][value={variant}]'));
             set('size', '{size}');
             check(document.getElementById('mode-{mode}'));
             set('my-side', '{my_side}'); {ai}
             return true;"
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

    /// Calls the JSON API from the page (`fetch`, so with the page's origin):
    /// the answer's status and body.
    pub async fn api(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let v = self
            .client
            .execute_async(
                "const [method, path, body, token, done] = arguments;
                 const headers = {Accept: 'application/json'};
                 if (body !== null) headers['Content-Type'] = 'application/json';
                 if (token) headers.Authorization = 'Bearer ' + token;
                 fetch(path, {method, headers, body: body === null ? undefined : JSON.stringify(body)})
                   .then(async r => done([r.status, await r.text()]), e => done([0, String(e)]));",
                vec![json!(method), json!(path), body.unwrap_or(Value::Null), json!(token)],
            )
            .await
            .unwrap_or_else(|e| panic!("{}: {method} {path}: {e}", self.name));
        let status = v[0].as_u64().unwrap_or(0) as u16;
        let text = v[1].as_str().unwrap_or_default();
        (
            status,
            serde_json::from_str(text).unwrap_or(Value::String(text.to_string())),
        )
    }

    /// Starts a game through the API (the page must be on the app): its id
    /// and the tokens of its human sides (`Value::Null` for an AI side).
    pub async fn create_game(&self, spec: Value) -> (String, Value, Value) {
        self.goto("/games").await;
        let (status, created) = self.api("POST", "/api/games", Some(spec), None).await;
        assert_eq!(status, 201, "{}: a game created: {created}", self.name);
        let id = created["game"]["id"].as_str().expect("an id").to_string();
        (
            id,
            created["tokens"]["black"].clone(),
            created["tokens"]["white"].clone(),
        )
    }

    /// Plays turns through the API, each by the side whose token is given
    /// (`turns`: the side's token and the turn as written).
    pub async fn play_api(&self, id: &str, turns: &[(&Value, &str)]) {
        for (token, turn) in turns {
            let (_, game) = self
                .api("GET", &format!("/api/games/{id}"), None, None)
                .await;
            let number = game["turn_number"].as_u64().expect("a turn number");
            let (status, answer) = self
                .api(
                    "POST",
                    &format!("/api/games/{id}/turns"),
                    Some(json!({"turn": turn, "turn_number": number})),
                    token.as_str(),
                )
                .await;
            assert_eq!(status, 200, "{}: turn {turn} played: {answer}", self.name);
        }
    }

    /// Ends the session (its Chromium closes).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// How many times a click or tap finds its element again after the page
/// redrew it.
const STALE_RETRIES: u32 = 5;

/// Whether WebDriver refused an action because the element it named was
/// redrawn (no longer in the page).
fn is_stale(e: &fantoccini::error::CmdError) -> bool {
    e.to_string().contains("stale element")
}
