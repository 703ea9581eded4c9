// The hand replayer: step through a finished hand (the list works without JavaScript). The
// steps so far stay as a log; the current one shows the board, the pot and the stacks.
(() => {
  "use strict";
  const root = document.querySelector("[data-testid=replayer]");
  if (!root) return;
  try {
    const fourColour = window.localStorage.getItem("floorman.table.fourColour") === "1";
    document.documentElement.classList.toggle("four-colour", fourColour); // the table's choice
  } catch (error) {
    // no storage: two colours
  }
  const steps = Array.from(root.querySelectorAll(".step"));
  steps.forEach((step) => drawCards(step.querySelector(".step-text")));
  const count = root.querySelector("[data-step-count]");
  const button = (name) => root.querySelector(`[data-step="${name}"]`);
  let at = 0;
  root.classList.add("live");

  // "alice is dealt As Ah", "bob shows Kh Kd: a pair", "Board: 9d": the cards the text names at
  // its end or before its colon are drawn as cards (the text stays for a reader without CSS).
  function drawCards(text) {
    if (!text) return;
    const match = text.textContent.match(/((?:[2-9TJQKA][shdc] )*[2-9TJQKA][shdc])(?=:|$)/);
    if (!match || (match.index > 0 && !/\s/.test(text.textContent[match.index - 1]))) return;
    const symbols = { s: "♠", h: "♥", d: "♦", c: "♣" };
    const cards = document.createElement("span");
    cards.className = "step-cards";
    match[1].split(" ").forEach((code) => {
      const card = document.createElement("span");
      card.className = `pcard mini suit-${code[1]}`;
      card.title = code;
      card.textContent = code[0] === "T" ? "10" : code[0];
      const suit = document.createElement("i");
      suit.textContent = symbols[code[1]];
      card.append(suit);
      cards.append(card);
    });
    const all = text.textContent;
    text.textContent = all.slice(0, match.index);
    text.append(cards, all.slice(match.index + match[1].length));
  }

  function show(scroll) {
    steps.forEach((step, index) => {
      step.hidden = index > at;
      step.classList.toggle("current", index === at);
    });
    if (count) count.textContent = `${at + 1} / ${steps.length}`;
    ["first", "prev"].forEach((name) => button(name) && (button(name).disabled = at === 0));
    ["next", "last"].forEach((name) => button(name) && (button(name).disabled = at >= steps.length - 1));
    if (scroll && steps[at]) steps[at].scrollIntoView({ block: "nearest" });
  }

  function go(to) {
    at = Math.max(0, Math.min(steps.length - 1, to));
    show(true);
  }

  root.addEventListener("click", (event) => {
    const pressed = event.target.closest("[data-step]");
    if (!pressed) return;
    const moves = {
      first: () => 0,
      prev: () => at - 1,
      next: () => at + 1,
      last: () => steps.length - 1,
    };
    const move = moves[pressed.dataset.step];
    if (move) go(move());
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length - 1 };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  });
  show(false);
})();
