// Floorman online table: the live fragment, moves by fetch, bet sizing, keyboard shortcuts,
// pre-action boxes, the action clock (R3.10) and the player's preferences.
//
// The page follows the table through ONE event stream per tab: a "changed" nudge (table and
// version, nothing secret) makes it fetch its viewer's fragment with a conditional GET and swap
// #state. The server decides everything: the buttons, the presets' amounts and whether a move
// is legal come in the fragment; this script never computes legality. Without JavaScript every
// form still posts and the page reloads.
(() => {
  "use strict";
  const script = document.getElementById("table-script");
  const streamUrl = script ? script.dataset.streamUrl : "";
  // In "My tables" each table is a frame; the parent page holds the tab's one stream and
  // forwards its nudges here (browsers allow six HTTP/1.1 connections per host).
  const embedded = Boolean(script && script.dataset.embedded === "1");
  const tableUrl = script ? script.dataset.tableUrl || "" : ""; // "/play/t/0/": 0 is the table
  const POLL_MS = 2500; // while the stream is down or refused (204)
  const SAFETY_MS = 15000; // while it is up: a lost nudge costs at most this
  const STREAMED_ANSWER_MS = 1500; // a change answered 204: its messages are due by then
  const OVERDUE_MS = 1500; // a deadline passed this long ago and nothing came: ask
  const errorBox = document.querySelector("[data-testid=table-error]");
  const stateEl = () => document.getElementById("state");
  const actionsOf = (el) => el.querySelector("form.actions");

  let etag = null; // of the fragment shown, from the last 200
  let offsetMs = 0; // the server's clock minus ours
  let streamOpen = false;
  let lastFetch = Date.now();
  let fetching = false;
  let again = false;
  let inFlight = false; // a POST of ours is on its way
  let pre = null; // the ticked pre-action box: {kind, hand, street, amount}
  let turnSeen = ""; // "hand:sequence" of the last turn of ours that chimed
  let lastTick = 0; // server time at the last tick (ms)
  const bankStarts = new Map(); // deadline -> when we first saw its time bank running

  // -- preferences (localStorage) -------------------------------------------------------------
  const PREFS = { "four-colour": "floorman.table.fourColour", mute: "floorman.table.mute" };
  function pref(name) {
    try {
      return window.localStorage.getItem(PREFS[name]) === "1";
    } catch (error) {
      return false; // storage refused (private mode): the defaults
    }
  }
  function applyPrefs() {
    document.documentElement.classList.toggle("four-colour", pref("four-colour"));
    document.querySelectorAll("[data-pref]").forEach((box) => {
      box.checked = pref(box.dataset.pref);
    });
  }
  document.addEventListener("change", (event) => {
    const box = event.target.closest && event.target.closest("[data-pref]");
    if (!box || !PREFS[box.dataset.pref]) return;
    try {
      window.localStorage.setItem(PREFS[box.dataset.pref], box.checked ? "1" : "0");
    } catch (error) {
      // not stored: it holds for this page only
    }
    if (box.dataset.pref === "four-colour") {
      document.documentElement.classList.toggle("four-colour", box.checked);
    }
  });

  // -- sound: a WebAudio chime, no audio file; the browser allows it after a gesture ---------
  const sound = (() => {
    let context = null;
    function unlock() {
      try {
        context = context || new (window.AudioContext || window.webkitAudioContext)();
        if (context.state === "suspended") context.resume();
      } catch (error) {
        context = null; // no WebAudio: silence
      }
    }
    ["pointerdown", "keydown", "touchstart"].forEach((type) =>
      document.addEventListener(type, unlock, { passive: true, capture: true }),
    );
    function notes(frequencies, seconds) {
      if (!context || context.state !== "running") return;
      frequencies.forEach((frequency, index) => {
        const start = context.currentTime + index * (seconds + 0.06);
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = "sine";
        oscillator.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.3, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(start);
        oscillator.stop(start + seconds + 0.05);
      });
    }
    return (kind) => {
      if (pref("mute")) return;
      document.dispatchEvent(new CustomEvent("table:chime", { detail: kind }));
      if (kind === "turn") notes([660, 880], 0.14);
      else notes([988, 988], 0.1); // the countdown started
    };
  })();

  // -- the fragment -----------------------------------------------------------------------------
  function showError(text) {
    if (!errorBox) return;
    errorBox.textContent = text;
    errorBox.hidden = !text;
  }

  async function refresh() {
    const el = stateEl();
    if (!el || !el.dataset.stateUrl) return;
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    lastFetch = Date.now();
    try {
      const headers = { "X-Floorman": "table" };
      if (etag) headers["If-None-Match"] = etag;
      const response = await fetch(el.dataset.stateUrl, {
        headers,
        cache: "no-store",
        credentials: "same-origin",
      });
      if (response.status === 200) {
        const tag = response.headers.get("ETag");
        if (swap(await response.text()) && tag) etag = tag;
      }
    } catch (error) {
      // Offline for a moment: the next poll tries again.
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  // Replace #state with a fragment unless the one shown is newer (an answer to our own move
  // may overtake a GET). Returns whether it was placed; null when the text is no fragment.
  function swap(html) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.getElementById("state");
    const current = stateEl();
    if (!fresh || !current) return null;
    if (Number(fresh.dataset.version || 0) < Number(current.dataset.version || 0)) return false;
    const focused = keepFocus(current);
    carryAmount(current, fresh);
    current.replaceWith(fresh);
    keepMine(fresh);
    if (focused) {
      const again = fresh.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    adopt(fresh);
    return true;
  }

  function keepFocus(current) {
    const active = document.activeElement;
    if (!active || !current.contains(active) || !active.name) return null;
    const form = active.form ? `form[action="${active.form.getAttribute("action")}"] ` : "";
    return `${form}[name="${active.name}"]`;
  }

  // Same turn, same buttons: the amount the player was choosing stays.
  function carryAmount(current, fresh) {
    if (current.dataset.hand !== fresh.dataset.hand) return;
    if (current.dataset.sequence !== fresh.dataset.sequence) return;
    const before = current.querySelector(".actions [name=amount]");
    const after = fresh.querySelector(".actions [name=amount]");
    if (before && after) after.value = before.value;
  }

  // -- an online event moved the player (balancing, a table break: TDA 10B/11A) -----------
  let seatedHere = false; // the page last showed the viewer seated at this table
  let leaving = false;
  function go(url) {
    if (leaving || !url) return;
    leaving = true;
    window.location.assign(embedded ? `${url}?embed=1` : url);
  }
  function urlOf(tableId) {
    return tableUrl ? tableUrl.replace(/\/0\/$/, `/${tableId}/`) : "";
  }
  // He sat here and now sits at another table of the event: follow him there. A player who
  // opens a table of his event where he has no seat only sees the link to his own.
  function followMove(el) {
    if (seatedHere && !el.dataset.mySeat && el.dataset.movedTo) go(el.dataset.movedTo);
    seatedHere = Boolean(el.dataset.mySeat);
  }

  // A fragment just placed (or the page's own): server time, pre-action box, chime, sizing.
  function adopt(el) {
    followMove(el);
    const now = Number(el.dataset.now);
    if (now) offsetMs = now * 1000 - Date.now();
    restorePre(el);
    if (el.dataset.myTurn) {
      const turn = `${el.dataset.hand}:${el.dataset.sequence}`;
      if (turn !== turnSeen) {
        turnSeen = turn;
        if (!runPre(el)) {
          sound("turn");
          showMySeat(el);
        }
      }
    }
    syncAmount(el, null);
    tick();
  }

  // On a phone the action bar covers the foot of the page: bring one's own cards above it.
  function showMySeat(el) {
    const mine = el.querySelector(".seat.me");
    if (mine && window.matchMedia("(max-width: 899px)").matches) {
      mine.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  }

  // -- moves and the other table forms -----------------------------------------------------
  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    const bytes = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(bytes);
    else bytes.forEach((_, i) => (bytes[i] = Math.floor(Math.random() * 256)));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  async function send(form, submitter) {
    if (inFlight) return;
    const data = new FormData(form);
    if (!data.get("csrfmiddlewaretoken") && csrfToken) data.set("csrfmiddlewaretoken", csrfToken);
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    const move = form.classList.contains("actions");
    if (move) data.set("key", newKey()); // a resend is done once
    const buttons = Array.from(stateEl().querySelectorAll("button"));
    buttons.forEach((button) => (button.disabled = true));
    inFlight = true;
    // With the stream open a move, sitting out, coming back and adding chips are answered
    // 204: the change's own messages bring the table and our part (tables/online/views.py).
    // Should they not come, the page asks for the fragment: a move is seen by its hand's
    // sequence (another player's change may move the version meanwhile), the others by the
    // table's version, which each of them moves.
    const headers = { "X-Floorman": "table" };
    if (streamOpen) headers["X-Floorman-Stream"] = "1";
    const shown = () => {
      const el = stateEl();
      if (!el) return "";
      return move ? `${el.dataset.hand}:${el.dataset.sequence}` : el.dataset.version;
    };
    const shownBefore = shown();
    let answered = false;
    try {
      // Sent url-encoded, not as multipart: Django reads such a body in a tenth of the CPU
      // (issue 17: half a millisecond of every move; the forms carry no file).
      const response = await fetch(form.getAttribute("action"), {
        method: "POST",
        body: new URLSearchParams(data),
        headers,
        credentials: "same-origin",
      });
      if (response.status === 204) {
        showError("");
        // The form's buttons stay off until the change's messages show it (a second click
        // meanwhile would only be refused): a move's are put away by his part, another
        // form's come back on. Not shown within 1.5 s: the page asks for its fragment.
        answered = true;
        if (!move && form.isConnected) form.reset(); // done: the amount typed is spent
        const own = Array.from(form.querySelectorAll("button"));
        const due = Date.now() + STREAMED_ANSWER_MS;
        const settle = () => {
          const arrived = shown() !== shownBefore;
          if (!arrived && Date.now() < due) {
            setTimeout(settle, 50);
            return;
          }
          if (!arrived) refresh();
          if (!move) own.forEach((button) => (button.disabled = false));
        };
        setTimeout(settle, 50);
        return;
      }
      const text = await response.text();
      if (response.ok) {
        showError("");
        if (swap(text) === null) window.location.reload(); // no fragment (logged out?): the page
        return;
      }
      const type = response.headers.get("Content-Type");
      showError(window.floormanExplain ? window.floormanExplain(response.status, type, text) : "");
      if (response.status === 409) refresh(); // the hand moved on: show where it is
    } catch (error) {
      showError(errorBox ? errorBox.dataset.offline : "");
    } finally {
      inFlight = false;
      buttons.forEach((button) => {
        const waits = answered && (move ? button.closest("form.actions") : form.contains(button));
        if (button.isConnected && !waits) button.disabled = false;
      });
    }
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.closest || !form.closest("#state")) return;
    event.preventDefault();
    send(form, event.submitter);
  });

  // -- bet sizing: slider, number and presets in step; the raise button says the amount ------
  function limits(el) {
    return {
      low: Number(el.dataset.min || 0),
      high: Number(el.dataset.max || 0),
      step: Number(el.dataset.bigBlind || 1) || 1,
    };
  }

  function syncAmount(el, source) {
    const form = el.querySelector("form.actions");
    if (!form) return;
    const slider = form.querySelector("[name=slider]");
    const number = form.querySelector("[name=amount]");
    const label = form.querySelector("[data-raise-amount]");
    if (!number) return;
    const { high, step } = limits(el);
    if (slider && source === slider) {
      let amount = Number(slider.value);
      if (amount + step > high) amount = high; // the top of the slider is all-in
      number.value = String(amount);
    } else if (slider) {
      slider.value = number.value;
    }
    if (label) label.textContent = number.value || "–";
  }

  function setAmount(el, amount) {
    const number = el.querySelector("form.actions [name=amount]");
    if (!number) return;
    const { low, high } = limits(el);
    number.value = String(Math.max(low, Math.min(high, amount)));
    syncAmount(el, number);
  }

  document.addEventListener("input", (event) => {
    const el = stateEl();
    if (el && event.target.closest && event.target.closest("form.actions")) {
      syncAmount(el, event.target);
    }
  });
  document.addEventListener("change", (event) => {
    const el = stateEl();
    if (el && event.target.matches && event.target.matches("form.actions [name=amount]")) {
      setAmount(el, Number(event.target.value)); // a typed amount is kept within the limits
    }
  });
  document.addEventListener("click", (event) => {
    const preset = event.target.closest && event.target.closest("form.actions [data-amount]");
    const el = stateEl();
    if (!preset || !el) return;
    setAmount(el, Number(preset.dataset.amount));
    actionsOf(el)
      .querySelectorAll("[data-amount]")
      .forEach((button) => button.classList.toggle("chosen", button === preset));
  });

  // -- keyboard: F fold, C check/call, R raise, A all-in, arrows: a big blind --------------
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || inFlight) return;
    const el = stateEl();
    const actions = el && actionsOf(el);
    if (!actions) return;
    const target = event.target;
    const typing =
      target.matches &&
      target.matches("input:not([type=range]):not([type=checkbox]), textarea, select, [contenteditable]");
    if (typing) return;
    const press = (selector) => {
      const button = actions.querySelector(selector);
      if (!button || button.disabled) return false;
      button.click();
      return true;
    };
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    let done = false;
    if (key === "f") done = press("button[value=fold]");
    else if (key === "c") done = press("button[value=check]") || press("button[value=call]");
    else if (key === "r") done = press("button[value=raise]");
    else if (key === "a") done = press("[data-preset='all-in']");
    else if (key === "ArrowUp" || key === "ArrowDown") {
      const number = actions.querySelector("[name=amount]");
      if (number) {
        const { step } = limits(el);
        setAmount(el, Number(number.value) + (key === "ArrowUp" ? step : -step));
        done = true;
      }
    }
    if (done) event.preventDefault();
  });

  // -- pre-action boxes, as players know them: ticked while another acts; each holds for the
  // street. "Check/fold" checks, or folds to a bet; "Call any" calls whatever bet comes, and a
  // raise does not clear it; "Call N" holds while the amount to call stays N; "Fold to any
  // bet" folds when a bet comes. A new street or hand clears them.
  //
  // What he would call is worked out here from the public table, the same for every viewer
  // (data-current-bet, his seat's data-bet and data-stack): a raise changes it for everyone,
  // and the server sends a private part only to those whose part really changed (issue 17).
  // As the server counts a call: what the bet asks of him, all-in if he has less; "" when he
  // has no boxes (not in the hand, folded, all-in, or it is his turn).
  function myCall(el) {
    const table = el.querySelector("[data-public]");
    const mine = el.querySelector("#mine");
    if (!table || !mine || !mine.querySelector(".preactions")) return "";
    const seat = table.querySelector(`.seat[data-seat="${mine.dataset.mySeatNumber}"]`);
    if (!seat || !mine.dataset.mySeatNumber) return "";
    const owed = Number(table.dataset.currentBet || 0) - Number(seat.dataset.bet || 0);
    return String(Math.max(0, Math.min(owed, Number(seat.dataset.stack || 0))));
  }

  // The "Call N" box says N in the page's language (its label a translated template, N
  // written as the server writes chips: plain digits) and hides when there is nothing to call.
  function showCall(el) {
    const box = el.querySelector('[data-pre="call-n"]');
    const label = box && box.closest("label");
    if (!label) return;
    const amount = myCall(el);
    const text = label.querySelector("[data-call-label]");
    if (text) text.textContent = text.dataset.callLabel.replace("__N__", amount);
    box.dataset.amount = amount;
    label.hidden = !(Number(amount) > 0);
  }

  function preMatches(el) {
    if (!pre || pre.hand !== el.dataset.hand || pre.street !== el.dataset.street) return false;
    if (pre.kind !== "call-n") return true;
    const amount = el.dataset.myTurn ? el.dataset.toCall : myCall(el);
    return amount === pre.amount; // the amount changed: the player decides again
  }

  // The boxes say what is ticked: a part placed anew comes with none ticked, and a part kept
  // (nothing of his changed: a new street, a raise) clears the box that no longer holds.
  function restorePre(el) {
    showCall(el);
    if (pre && (!preMatches(el) || !el.dataset.inHand)) pre = null;
    if (pre && el.dataset.myTurn) return; // runPre acts on it
    if (pre) {
      const box = el.querySelector(`[data-pre="${pre.kind}"]`);
      if (!box || box.closest("[hidden]")) pre = null;
    }
    el.querySelectorAll("[data-pre]").forEach((box) => {
      box.checked = Boolean(pre) && box.dataset.pre === pre.kind;
    });
  }

  document.addEventListener("change", (event) => {
    const box = event.target.closest && event.target.closest("[data-pre]");
    const el = stateEl();
    if (!box || !el) return;
    el.querySelectorAll("[data-pre]").forEach((other) => {
      if (other !== box) other.checked = false;
    });
    const amount = box.dataset.pre === "call-n" ? myCall(el) : "";
    pre = box.checked
      ? { kind: box.dataset.pre, hand: el.dataset.hand, street: el.dataset.street, amount }
      : null;
  });

  // Our turn came with a box still ticked: act through the same POST. Returns if it acted.
  function runPre(el) {
    if (!pre) return false;
    const kind = pre.kind;
    pre = null;
    const actions = actionsOf(el);
    if (!actions) return false;
    const button = (value) => actions.querySelector(`button[name=action][value=${value}]`);
    let choice = null;
    if (kind === "check-fold") choice = button("check") || button("fold");
    else if (kind === "call-any") choice = button("call") || button("check");
    else if (kind === "call-n") choice = button("call") || button("check");
    else if (kind === "fold-any" && Number(el.dataset.toCall || 0) > 0) choice = button("fold");
    if (!choice) return false;
    send(actions, choice);
    return true;
  }

  // -- copy the deck's commitment (kept in full: docs/online.md) ------------------------------
  document.addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    const text = button.dataset.copy;
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch (error) {
      const code = button.parentElement && button.parentElement.querySelector("code");
      if (code) {
        window.getSelection().selectAllChildren(code); // the text selected: Ctrl+C copies it
        copied = document.execCommand && document.execCommand("copy");
      }
    }
    if (copied) {
      const label = button.textContent;
      button.textContent = button.dataset.copied || label;
      setTimeout(() => button.isConnected && (button.textContent = label), 1500);
    }
  });

  // -- the action clock (R3.10): a countdown from data-warn-at to data-deadline ---------------
  function tick() {
    const el = stateEl();
    if (!el) return;
    const now = Date.now() + offsetMs;
    const deadline = Number(el.dataset.deadline || 0) * 1000;
    const warnAt = Number(el.dataset.warnAt || 0) * 1000;
    let start = warnAt;
    if (!start && el.dataset.bank && deadline) {
      if (!bankStarts.has(deadline)) {
        if (bankStarts.size > 20) bankStarts.clear();
        bankStarts.set(deadline, now);
      }
      start = bankStarts.get(deadline); // the time bank runs: counted down from now on
    }
    const clock = el.querySelector("[data-testid=action-clock]");
    if (clock) {
      const counting = deadline && start && now >= start;
      clock.hidden = !counting;
      if (counting) {
        const left = Math.max(0, deadline - now);
        const secs = clock.querySelector(".seat-clock-secs");
        const text = String(Math.ceil(left / 1000));
        if (secs && secs.textContent !== text) secs.textContent = text;
        clock.style.setProperty("--left", String(Math.min(1, left / Math.max(1, deadline - start))));
        clock.classList.toggle("urgent", left <= 5000);
      }
    }
    if (el.dataset.myTurn && warnAt && lastTick && lastTick < warnAt && now >= warnAt) {
      sound("countdown");
    }
    lastTick = now;
    if (deadline && now > deadline + OVERDUE_MS && Date.now() - lastFetch > 2000) refresh();
  }

  // -- the stream carries the table (docs/architecture.md, "Live updates") -------------------
  // A table's message holds the public table of its version in the languages its streams
  // read (tables/online/languages.py): placed at once, no request; a message without this
  // page's language is a nudge, and the page fetches its fragment. The viewer's own message holds his private part (his cards, buttons and
  // pre-action boxes): placed likewise. The viewer's own cards are laid into his seat of the
  // public table from the private part he was last sent.
  const language = (document.documentElement.lang || "en").slice(0, 2);
  let csrfToken = "";
  function keepCsrf(root) {
    const input = root.querySelector("input[name=csrfmiddlewaretoken]");
    if (input && input.value) csrfToken = input.value;
  }
  function fillCsrf(root) {
    if (!csrfToken) return;
    root.querySelectorAll("form[method=post]").forEach((form) => {
      let input = form.querySelector("input[name=csrfmiddlewaretoken]");
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = "csrfmiddlewaretoken";
        form.prepend(input);
      }
      if (!input.value) input.value = csrfToken;
    });
  }
  function htmlOf(message) {
    const html = message.html;
    if (!html || typeof html !== "object") return null;
    const text = html[language];
    if (!text) return null;
    const template = document.createElement("template");
    template.innerHTML = text.trim();
    return template.content;
  }
  // His own cards into his seat of the public table: from his last private part, or from the
  // last whole fragment (which drew them there itself).
  let myHole = { hand: "", html: "" };
  function keepMine(el) {
    const hole = el.querySelector("#mine [data-my-hole]");
    if (hole) {
      myHole = { hand: hole.dataset.hand, html: hole.innerHTML };
      hole.remove(); // kept here; his seat shows them
      return;
    }
    const seat = el.querySelector(".seat.me .hole");
    if (seat && seat.querySelector(".pcard:not(.back)")) {
      myHole = { hand: el.dataset.hand, html: seat.innerHTML };
    }
  }
  function layMine(el) {
    const mine = el.querySelector("#mine");
    const number = mine ? mine.dataset.mySeatNumber : "";
    el.querySelectorAll(".seat.me").forEach((seat) => seat.classList.remove("me"));
    if (!number) return;
    const seat = el.querySelector(`.seat[data-seat="${number}"]`);
    if (!seat) return;
    seat.classList.add("me");
    const cards = seat.querySelector(".hole");
    if (cards && myHole.html && myHole.hand === el.dataset.hand) cards.innerHTML = myHole.html;
  }
  function applyPublic(message) {
    const el = stateEl();
    if (!el || String(message.table) !== el.dataset.table) return true;
    if (Number(message.version) <= Number(el.dataset.version || -1)) return true; // shown
    const content = htmlOf(message);
    const fresh = content && content.querySelector("[data-public]");
    const current = el.querySelector("[data-public]");
    if (!fresh || !current) return false; // no table in it: fetch the fragment
    Object.keys(current.dataset).forEach((key) => key !== "public" && delete el.dataset[key]);
    Object.entries(fresh.dataset).forEach(([key, value]) => key !== "public" && (el.dataset[key] = value));
    current.replaceWith(fresh);
    el.classList.toggle("over", Boolean(el.dataset.over));
    lastFetch = Date.now(); // the table as it stands arrived: no safety poll is due
    // His buttons act on the sequence they were drawn for: once the table moved past it (his
    // own move, a time-out) they are put away until his part says what is his now.
    const actions = el.querySelector("#mine form.actions");
    const drawnFor = actions && actions.querySelector("[name=sequence]");
    if (actions && (!drawnFor || drawnFor.value !== el.dataset.sequence)) {
      actions.remove();
      el.dataset.myTurn = "";
      el.classList.remove("my-turn");
    }
    layMine(el);
    adopt(el);
    return true;
  }
  // What #state says of the viewer alone: his part's own data-* (the rest is the table's).
  const PRIVATE_KEYS = ["myTurn", "mySeat", "movedTo", "inHand", "toCall", "min", "max", "bigBlind"];
  function applyPrivate(message) {
    const el = stateEl();
    if (!el || String(message.table) !== el.dataset.table) return true;
    const content = htmlOf(message);
    const fresh = content && content.getElementById("mine");
    const current = el.querySelector("#mine");
    if (!fresh || !current) return false;
    if (Number(fresh.dataset.version || 0) < Number(current.dataset.version || 0)) return true;
    fillCsrf(fresh);
    const focused = keepFocus(current);
    current.replaceWith(fresh);
    keepMine(el);
    PRIVATE_KEYS.forEach((key) => (el.dataset[key] = fresh.dataset[key] || ""));
    el.classList.toggle("my-turn", Boolean(fresh.dataset.myTurn));
    el.classList.toggle("seated", Boolean(fresh.dataset.mySeatNumber));
    el.style.setProperty("--me", fresh.dataset.mySeatNumber || "0");
    layMine(el);
    if (focused) {
      const again = el.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    adopt(el);
    return true;
  }

  // The viewer's own messages are numbered (seq): one that came twice (a reconnect's catch-up
  // and the live stream) is placed once. Table messages carry their version for the same end.
  const ownSeen = new Set();
  function seenBefore(message) {
    const seq = Number(message.seq || 0);
    if (!seq) return false;
    if (ownSeen.has(seq)) return true;
    if (ownSeen.size > 200) ownSeen.clear();
    ownSeen.add(seq);
    return false;
  }

  // -- the stream: one per tab (static/js/stream.js); polling while it is down ---------------
  // Every message's id says what the tab has (each table's version, the number of its own
  // messages): a stream opened again sends it and gets what the tab missed.
  const stream = window.floormanTableStream(streamUrl, {
    // The page says whether its stream is up (html[data-stream]: "open" or "down").
    open: () => {
      streamOpen = true;
      document.documentElement.dataset.stream = "open";
    },
    drop: () => {
      streamOpen = false; // meanwhile the page polls
      document.documentElement.dataset.stream = "down";
    },
    message: (message) => {
      const el = stateEl();
      if (message.user !== undefined) {
        if (seenBefore(message)) return;
        // The event's director moved him (his seat here is gone): to his new table at once.
        // Only this event's news: he may play another event in another tab of this stream.
        const moved =
          message.what === "moved" &&
          message.table &&
          el &&
          el.dataset.event &&
          String(message.event) === el.dataset.event;
        if (moved && String(message.table) !== el.dataset.table && seatedHere) {
          go(urlOf(message.table));
          return;
        }
        if (message.what === "private" && applyPrivate(message)) return; // his part, carried
        refresh(); // the viewer's other news (his chips): the fragment says what changed
        return;
      }
      if (!el || String(message.table) !== el.dataset.table) return;
      if (Number(message.version) <= Number(el.dataset.version || -1)) return; // shown already
      if (message.html && applyPublic(message)) return; // the table, carried: no request
      refresh(); // a nudge without the table: fetch it
    },
  });
  const openStream = stream.open;

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    refresh(); // a phone waking up: catch up at once
    openStream();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) refresh();
  });
  setInterval(() => {
    tick();
    if (document.hidden) return;
    if (Date.now() - lastFetch >= (streamOpen ? SAFETY_MS : POLL_MS)) refresh();
  }, 250);

  function followParent() {
    window.addEventListener("message", (event) => {
      const message = event.data;
      if (event.origin !== window.location.origin || !message) return;
      if (message.type === "floorman:stream") streamOpen = Boolean(message.open);
      if (message.type !== "floorman:changed") return;
      const el = stateEl();
      if (!el || String(message.table) !== el.dataset.table) return;
      const shown = Number(el.dataset.version || -1);
      if (message.version !== null && Number(message.version) <= shown) return;
      const carried = message.message;
      if (carried && carried.user !== undefined && seenBefore(carried)) return;
      if (carried && carried.html) {
        if (carried.user !== undefined ? applyPrivate(carried) : applyPublic(carried)) return;
      }
      refresh();
    });
  }

  applyPrefs();
  keepCsrf(document);
  const first = stateEl();
  if (first) {
    keepMine(first);
    if (first.dataset.myTurn) turnSeen = `${first.dataset.hand}:${first.dataset.sequence}`;
    adopt(first);
    if (first.dataset.myTurn) showMySeat(first);
  }
  if (embedded) followParent();
  else openStream();
})();
