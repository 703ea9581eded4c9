// Floorman clock: counts down from the server's ends_at. The event stream carries the clock's
// state (the fragment itself, and the one to show when the level runs out), so a change shows
// without a fetch; a tab that reconnects gets the current state from the server by its
// Last-Event-ID. Conditional GETs of the fragment remain the fallback: when the page becomes
// visible again, when a level runs out with nothing in hand, and as polling (every few seconds
// while the stream is down, now and then while it is up).
(() => {
  "use strict";
  const root = document.querySelector("[data-live]");
  if (!root) return;

  const refreshUrl = root.dataset.refreshUrl;
  const targetId = root.dataset.refreshTarget;
  const streamUrl = root.dataset.streamUrl;
  const pollMs = Number(root.dataset.pollMs || 5000); // while the stream is down
  const streamPollMs = Number(root.dataset.streamPollMs || 20000); // while it is up
  const warnMs = 60000;

  let serverOffset = 0; // the server's clock minus ours
  let seenClock = null; // the #clock element last adopted
  let lastLevel = null;
  let lastStatus = null;
  let lastRemaining = null;
  let fetching = false;
  let again = false;
  let lastFetch = Date.now(); // the page came with the fragment
  let lastZeroFetch = 0;
  let clockId = null; // the id of the newest clock state the stream brought
  let upcoming = null; // {endsAt, html}: what the clock shows once the level in force runs out
  let streamOpen = false;
  let sentAt = null; // the server's time as the stream sent the fragment being placed

  const clockEl = () => document.getElementById("clock");
  // The viewer's own part (an online event's page, #mine) looks again: his news named the
  // event, the event started or finished, or his stream came back after a gap.
  const mineChanged = () => document.body.dispatchEvent(new CustomEvent("fm:mine"));

  function countdownText(ms) {
    const total = Math.max(0, Math.ceil(ms / 1000));
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = total % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
  }

  function remainingMs(el) {
    if (el.dataset.status === "running" && el.dataset.endsAt) {
      return Date.parse(el.dataset.endsAt) - (Date.now() + serverOffset);
    }
    return Number(el.dataset.remainingMs || 0);
  }

  // A clock element not seen before: take the server's time and notice a level change.
  function adopt(el) {
    seenClock = el;
    const serverNow = Date.parse(sentAt || el.dataset.serverNow);
    sentAt = null;
    if (!Number.isNaN(serverNow)) serverOffset = serverNow - Date.now();
    const level = el.dataset.levelIndex;
    if (lastLevel !== null && level !== lastLevel) sound.levelChange();
    lastLevel = level;
    // Started or finished: what the viewer himself may do changes (an online event's page
    // shows his table, his result, whether he may still register).
    const status = el.dataset.status;
    if (lastStatus !== null && status !== lastStatus) mineChanged();
    lastStatus = status;
    lastRemaining = null;
  }

  function tick() {
    const el = clockEl();
    if (!el) return;
    if (el !== seenClock) adopt(el);
    const remaining = remainingMs(el);
    const running = el.dataset.status === "running";
    if (running && remaining <= 0 && upcoming && upcoming.endsAt === el.dataset.endsAt) {
      // The level ran out: show the next one, which the stream sent ahead, on time.
      const next = upcoming;
      upcoming = null;
      place(next.html, new Date(Date.now() + serverOffset).toISOString());
      return;
    }
    const time = el.querySelector("[data-countdown]");
    const text = countdownText(remaining);
    if (time && time.textContent !== text) time.textContent = text;
    const breakIn = el.querySelector("[data-break-in]");
    if (breakIn && el.dataset.breakAfterMs) {
      breakIn.textContent = countdownText(remaining + Number(el.dataset.breakAfterMs));
    }
    el.classList.toggle("clock-warning", running && remaining <= warnMs);
    if (running && lastRemaining !== null && lastRemaining > warnMs && remaining <= warnMs) {
      sound.warning();
    }
    lastRemaining = remaining;
    // The level ran out and nothing is in hand: ask the server (each second until it shows).
    if (running && remaining <= 0 && Date.now() - lastZeroFetch > 1000) {
      lastZeroFetch = Date.now();
      refresh();
    }
  }

  // Clock states are ordered by (clock version, level): within one version the clock only
  // moves forward, so an answer that left the server before a newer state never replaces it.
  // One read a minute later wins anyway (versions go back only when a database was restored).
  const restoredAfterMs = 60000;
  function order(el) {
    if (!el) return [-1, -1, 0];
    const serverNow = Date.parse(el.dataset.serverNow) || 0;
    return [Number(el.dataset.version || 0), Number(el.dataset.levelIndex || 0), serverNow];
  }
  function olderThanShown(fresh) {
    const clock = fresh.id === "clock" ? fresh : fresh.querySelector("#clock");
    if (!clock) return false;
    const [version, level, read] = order(clock);
    const [shownVersion, shownLevel, shownRead] = order(clockEl());
    if (read > shownRead + restoredAfterMs) return false;
    return version < shownVersion || (version === shownVersion && level < shownLevel);
  }

  let afterOwnAction = false;
  document.addEventListener("htmx:afterRequest", () => {
    if (!afterOwnAction) return;
    afterOwnAction = false;
    refresh();
  });

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    lastFetch = Date.now();
    try {
      const target = document.getElementById(targetId);
      const headers = { "HX-Request": "true" };
      if (target && target.dataset.etag) headers["If-None-Match"] = `"${target.dataset.etag}"`;
      const response = await fetch(refreshUrl, { headers, cache: "no-store", credentials: "same-origin" });
      if (response.status === 200) swap(await response.text(), targetId);
    } catch (error) {
      // Offline for a moment: the countdown goes on, the next poll tries again.
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  // A fragment from a GET or from the stream (serverNow: the server's time as it was sent),
  // unless what is shown is newer (a floor page also swaps in the answers to its own actions).
  function swap(html, id, serverNow) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.getElementById(id);
    const target = document.getElementById(id);
    if (!fresh || !target || olderThanShown(fresh)) return;
    if (target.matches(".htmx-request") || target.querySelector(".htmx-request")) {
      // An action of this page is under way (the floor's): replacing the element that sent it
      // would drop its answer (htmx swaps nothing into a removed element, and the page would
      // not learn it went through). Its answer comes first; then the page looks again.
      afterOwnAction = true;
      return;
    }
    sentAt = serverNow || null;
    const focused = document.activeElement && document.activeElement.id;
    target.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (focused) {
      const again = document.getElementById(focused);
      if (again) again.focus();
    }
    tick();
  }

  function place(html, serverNow) {
    swap(html, "clock", serverNow);
  }

  // The stream's ids: "<clock version>.<milliseconds>", ordered as above.
  function newer(id, than) {
    if (!than) return true;
    const [version, stamp] = id.split(".").map(Number);
    const [thanVersion, thanStamp] = than.split(".").map(Number);
    if (stamp > thanStamp + restoredAfterMs) return true;
    return version > thanVersion || (version === thanVersion && stamp > thanStamp);
  }

  // The clock's state from the stream: show it, keep the next level in hand. The floor page
  // fetches its whole dashboard instead, so that its controls never lag behind its clock.
  function applyClock(state) {
    if (!newer(state.id, clockId)) return;
    clockId = state.id;
    upcoming = state.next ? { endsAt: state.next.at, html: state.next.html } : null;
    // A level with a chip-up (R5.11) ended: nothing is fetched. The chip-up banner comes with
    // the board the level change publishes (applyBoard). When 500 phones fetched their
    // standings and banners within 10 s (or only the banners within 20 s), the web processes
    // fell seconds behind and the floor's next Pause or Resume waited behind them (issue 17,
    // bench/RESULTS.md).
    const shown = clockEl();
    if (shown && shown.dataset.etag === state.etag) {
      const serverNow = Date.parse(state.now);
      if (!Number.isNaN(serverNow)) serverOffset = serverNow - Date.now();
    } else if (targetId === "clock") {
      place(state.html, state.now);
    } else {
      refresh();
    }
  }

  // The event's board (standings, chip-up banner) comes with each change, rendered once by the
  // server: the page shows it without a fetch. When 500 phones each fetched both parts after
  // every bust-out, one bust cost the server about 10 s of CPU (issue 17, bench/RESULTS.md).
  // Each part keeps the newest reading it was given, by the board's stamp (when the server
  // began reading it): a GET's answer (its Board-Stamp header) or a board that arrives after
  // a newer one is dropped.
  const boardStamps = {};
  const boardParts = () => document.querySelectorAll("[data-board-part]");
  // The board's polls, the fallback: every 20 s while the stream is down, now and then while
  // it is up (a board lost on the way); the parts ask when the page fires fm:board-poll.
  const boardPollMs = 20000;
  const boardStreamPollMs = 120000;
  let lastBoardPoll = Date.now();
  function pollBoard() {
    lastBoardPoll = Date.now();
    document.body.dispatchEvent(new CustomEvent("fm:board-poll"));
  }
  const boardShown = {}; // each part's html as it came, to see whether a board changes it
  let boardStamp = 0; // the newest board the stream brought
  function applyBoard(board) {
    if (board.stamp <= boardStamp) return;
    boardStamp = board.stamp;
    lastBoardPoll = Date.now();
    // The floor's dashboard shows what the board does not (the seats, the entries, a table's
    // race): it fetches itself, whatever the board's parts say.
    if (targetId !== "clock") refresh();
    let changed = false;
    for (const el of boardParts()) {
      const part = el.dataset.boardPart;
      if (typeof board[part] !== "string" || (boardStamps[part] || 0) >= board.stamp) continue;
      boardStamps[part] = board.stamp;
      if (boardShown[part] === board[part]) continue; // the same (on connect, after a gap)
      boardShown[part] = board[part];
      el.innerHTML = board[part];
      if (window.htmx) window.htmx.process(el);
      changed = true;
    }
    if (changed) document.body.dispatchEvent(new CustomEvent("fm:board"));
  }
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const el = event.detail.elt;
    const part = el && el.dataset ? el.dataset.boardPart : undefined;
    const stamp = Number(event.detail.xhr.getResponseHeader("Board-Stamp"));
    if (!part || !stamp) return;
    if ((boardStamps[part] || 0) > stamp) {
      event.detail.shouldSwap = false;
      return;
    }
    boardStamps[part] = stamp;
    boardShown[part] = event.detail.serverResponse;
  });
  setInterval(() => {
    const every = streamOpen ? boardStreamPollMs : boardPollMs;
    if (!document.hidden && Date.now() - lastBoardPoll >= every) pollBoard();
  }, 1000);

  // Sound: a WebAudio beep, no audio file; the browser allows it only after a user gesture.
  const sound = (() => {
    let context = null;
    let enabled = false;
    const toggle = document.querySelector("[data-sound-toggle]");
    function beep(frequency, seconds, count) {
      if (!enabled || !context) return;
      for (let i = 0; i < count; i++) {
        const start = context.currentTime + i * (seconds + 0.12);
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = "sine";
        oscillator.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(start);
        oscillator.stop(start + seconds + 0.05);
      }
    }
    function show() {
      if (!toggle) return;
      toggle.textContent = enabled ? toggle.dataset.labelOn : toggle.dataset.labelOff;
      toggle.setAttribute("aria-pressed", String(enabled));
      toggle.classList.toggle("on", enabled);
    }
    if (toggle) {
      toggle.addEventListener("click", () => {
        enabled = !enabled;
        if (enabled) {
          context = context || new (window.AudioContext || window.webkitAudioContext)();
          context.resume();
          beep(880, 0.12, 1);
        }
        show();
      });
    }
    let lastChange = 0;
    return {
      warning: () => beep(880, 0.18, 2),
      levelChange: () => {
        if (Date.now() - lastChange < 3000) return;
        lastChange = Date.now();
        beep(660, 0.35, 3);
      },
    };
  })();

  // Floor keyboard shortcuts: they press the visible button, so the same form is posted.
  if (root.hasAttribute("data-shortcuts")) {
    document.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const tag = (event.target.tagName || "").toLowerCase();
      if (["input", "select", "textarea", "button"].includes(tag) && event.key === " ") return;
      if (["input", "select", "textarea"].includes(tag)) return;
      const keys = { " ": "space", n: "n", N: "n", p: "p", P: "p", "+": "+", "=": "+", "-": "-", _: "-" };
      const shortcut = keys[event.key];
      if (!shortcut) return;
      const button = document.querySelector(`#${targetId} button[data-shortcut="${shortcut}"]:not([disabled])`);
      if (!button) return;
      event.preventDefault();
      button.click();
    });
  }

  // One stream per tab. The browser reconnects by itself (sending Last-Event-ID); if it gives
  // up (an error status), the page opens a new one later and says which state it has.
  let retryMs = 5000;
  let source = null;
  let streamOpened = false;
  function openStream() {
    if (document.hidden) return; // opened when the tab is shown again
    const joint = streamUrl.includes("?") ? "&" : "?";
    const url = clockId ? `${streamUrl}${joint}last=${encodeURIComponent(clockId)}` : streamUrl;
    source = new EventSource(url);
    source.addEventListener("open", () => {
      streamOpen = true;
      root.dataset.stream = "open"; // for a style, and for a test to wait on
      retryMs = 5000;
      // Back after a gap: the viewer's own news of the gap were lost (the clock and the board
      // come with the stream).
      if (streamOpened) mineChanged();
      streamOpened = true;
    });
    source.addEventListener("clock", (event) => applyClock(JSON.parse(event.data)));
    source.addEventListener("standings", (event) => applyBoard(JSON.parse(event.data)));
    source.addEventListener("mine", mineChanged);
    source.addEventListener("changed", (event) => {
      const message = JSON.parse(event.data);
      // A change that came without its state (the board could not be read): the parts of
      // the page fetch themselves.
      document.body.dispatchEvent(new CustomEvent("fm:changed"));
      // A clock change that came without its state, or the floor's dashboard: fetch.
      const clock = message.what === "clock" || message.what === "level";
      if (clock || targetId !== "clock") refresh();
    });
    const mine = source;
    source.addEventListener("error", () => {
      streamOpen = false;
      root.dataset.stream = "down";
      if (mine.readyState === EventSource.CLOSED && source === mine) {
        source = null;
        setTimeout(() => source || openStream(), retryMs);
        retryMs = Math.min(retryMs * 2, 60000);
      }
    });
  }
  const streaming = streamUrl && "EventSource" in window;
  if (streaming) openStream();

  // A tab in the background gives its stream up after a few seconds: a browser opens at most
  // six connections to a server (HTTP/1.1), and tabs that each held a stream left none for the
  // pages (issue 16: "the server answered nothing"). Shown again, it reconnects with the id of
  // the state it has (the server sends the current one if that is older) and fetches.
  const hiddenCloseMs = 5000;
  let hiddenTimer = null;
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      hiddenTimer = setTimeout(() => {
        if (source) source.close();
        source = null;
        streamOpen = false;
        root.dataset.stream = "closed";
      }, hiddenCloseMs);
      return;
    }
    clearTimeout(hiddenTimer);
    if (streaming && !source) openStream(); // it comes with the board
    else if (!streaming) pollBoard();
    tick();
    refresh();
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    refresh();
    pollBoard();
  });
  setInterval(() => {
    const every = streamOpen ? streamPollMs : pollMs;
    if (!document.hidden && Date.now() - lastFetch >= every) refresh();
  }, 1000);
  setInterval(tick, 200);
  tick();
})();
