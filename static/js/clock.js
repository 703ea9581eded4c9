// Floorman clock: counts down from the server's ends_at and refetches the fragment when the
// server says something changed (server-sent events), when the page becomes visible again, when
// a level runs out, and every few seconds as a fallback (conditional GET: a 304 costs nothing).
(() => {
  "use strict";
  const root = document.querySelector("[data-live]");
  if (!root) return;

  const refreshUrl = root.dataset.refreshUrl;
  const targetId = root.dataset.refreshTarget;
  const streamUrl = root.dataset.streamUrl;
  const pollMs = Number(root.dataset.pollMs || 5000);
  const warnMs = 60000;

  let serverOffset = 0; // the server's clock minus ours, from the last fragment
  let seenClock = null; // the #clock element last adopted
  let lastLevel = null;
  let lastRemaining = null;
  let fetching = false;
  let again = false;
  let lastFetch = 0;
  let lastZeroFetch = 0;

  const clockEl = () => document.getElementById("clock");

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

  // A fresh fragment: take the server's time and notice a level change.
  function adopt(el) {
    seenClock = el;
    const serverNow = Date.parse(el.dataset.serverNow);
    if (!Number.isNaN(serverNow)) serverOffset = serverNow - Date.now();
    const level = el.dataset.levelIndex;
    if (lastLevel !== null && level !== lastLevel) sound.levelChange();
    lastLevel = level;
    lastRemaining = null;
  }

  function tick() {
    const el = clockEl();
    if (!el) return;
    if (el !== seenClock) adopt(el);
    const remaining = remainingMs(el);
    const running = el.dataset.status === "running";
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
    // The level ran out here: ask the server for the next one (retry each second until it shows).
    if (running && remaining <= 0 && Date.now() - lastZeroFetch > 1000) {
      lastZeroFetch = Date.now();
      refresh();
    }
  }

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
      if (response.status === 200) swap(await response.text());
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

  function swap(html) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.getElementById(targetId);
    const target = document.getElementById(targetId);
    if (!fresh || !target) return;
    const focused = document.activeElement && document.activeElement.id;
    target.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (focused) {
      const again = document.getElementById(focused);
      if (again) again.focus();
    }
    tick();
  }

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

  if (streamUrl && "EventSource" in window) {
    const source = new EventSource(streamUrl);
    source.addEventListener("changed", () => {
      // Spread the refetches of a room full of phones over half a second (the page still
      // shows the change well within the 2 s docs/architecture.md promises).
      setTimeout(refresh, Math.random() * 500);
      // Other live parts of the page (the standings) listen for this and fetch themselves.
      document.body.dispatchEvent(new CustomEvent("fm:changed"));
    });
    // (Re)connected: catch up on whatever was missed while the stream was down.
    source.addEventListener("open", () => refresh());
  }
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) {
      tick();
      refresh();
    }
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refresh();
  });
  setInterval(() => {
    if (!document.hidden && Date.now() - lastFetch >= pollMs) refresh();
  }, 1000);
  setInterval(tick, 200);
  tick();
})();
