// Floorman: check a hand's deck commitment in the browser (Web Crypto SHA-256), step by step,
// by the scheme of tables/engine/commitment.py:
//   leaf(p) = SHA-256(salt(p) ‖ p ‖ card), p and card one byte each (card = rank × 4 + suit)
//   root    = SHA-256 of the 52 leaves written as hex and joined in deck order
// Each card the player saw is opened (position, card, salt): its leaf is computed and compared
// with the leaf published after the hand; then the 52 leaves are hashed and compared with the
// commitment the table showed before the deal (the player may paste the one he copied then).
// No server: the data is in the page (a JSON script, no code), the hashing in this browser.
(() => {
  "use strict";
  const root = document.querySelector("[data-verify]");
  const data = document.getElementById("verify-data");
  if (!root || !data) return;
  const out = (name) => root.querySelector(`[data-out="${name}"]`);
  const text = (name) => root.dataset[name] || "";

  function hex(bytes) {
    return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function fromHex(value) {
    if (!/^([0-9a-f]{2})*$/i.test(value)) return null;
    const bytes = new Uint8Array(value.length / 2);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(value.substr(i * 2, 2), 16);
    return bytes;
  }
  async function sha256(bytes) {
    return hex(await window.crypto.subtle.digest("SHA-256", bytes));
  }

  function verdict(el, ok) {
    el.textContent = ok ? text("matches") : text("mismatch");
    el.classList.toggle("ok", ok);
    el.classList.toggle("bad", !ok);
  }

  async function check() {
    const result = out("result");
    if (!window.crypto || !window.crypto.subtle) {
      result.textContent = text("noCrypto"); // Web Crypto needs HTTPS (or localhost)
      return;
    }
    let hand;
    try {
      hand = JSON.parse(data.textContent);
    } catch (error) {
      result.textContent = text("mismatch");
      return;
    }
    const leaves = Array.isArray(hand.leaves) ? hand.leaves.map(String) : [];
    let allOk = leaves.length === 52 && leaves.every((leaf) => /^[0-9a-f]{64}$/.test(leaf));
    // Step 1: each opened card against its leaf.
    const rows = root.querySelectorAll("[data-opening]");
    for (const row of rows) {
      const position = Number(row.dataset.position);
      const card = Number(row.dataset.cardByte);
      const salt = fromHex(row.dataset.salt || "");
      let leaf = "";
      if (salt && salt.length === 32 && position >= 0 && position < 52 && card >= 0 && card < 52) {
        const message = new Uint8Array(34);
        message.set(salt, 0);
        message[32] = position;
        message[33] = card;
        leaf = await sha256(message);
      }
      const ok = leaf !== "" && leaf === leaves[position];
      row.querySelector("[data-out=leaf]").textContent = leaf || "—";
      verdict(row.querySelector("[data-out=leaf-ok]"), ok);
      allOk = allOk && ok;
    }
    // Step 2: the leaves joined, hashed; step 3: against the commitment shown before the deal.
    const joined = leaves.join("");
    out("joined").textContent = joined;
    out("joined-length").textContent = String(joined.length);
    const computed = await sha256(new TextEncoder().encode(joined));
    out("computed").textContent = computed;
    const expected = (root.querySelector("[name=commitment]").value || "").trim().toLowerCase();
    const rootOk = computed === expected;
    verdict(out("root-ok"), rootOk);
    allOk = allOk && rootOk;
    verdict(result, allOk);
  }

  root.addEventListener("submit", (event) => {
    event.preventDefault();
    check();
  });
  check();
})();
