// "My tables": one stream for every table of the tab, its messages (each table, and the viewer's
// own part) forwarded to each table's frame (tables/online/live.py). A table where it is the viewer's turn is marked.
(() => {
  "use strict";
  const script = document.getElementById("multi-script");
  const frames = Array.from(document.querySelectorAll("iframe[data-table]"));
  if (!script || !frames.length || !("EventSource" in window)) return;
  const origin = window.location.origin;
  const post = (message, only) => {
    frames.forEach((frame) => {
      if (only && frame.dataset.table !== String(only)) return;
      if (frame.contentWindow) frame.contentWindow.postMessage(message, origin);
    });
  };
  // When the stream drops, a new one is opened after a pause with the last message's id
  // (?last=): the server sends what the tables missed (tables/online/live.py).
  let lastEventId = "";
  let retryMs = 1000;
  function openStream() {
    const base = script.dataset.streamUrl;
    const url = lastEventId ? `${base}&last=${encodeURIComponent(lastEventId)}` : base;
    const source = new EventSource(url);
    source.addEventListener("open", () => {
      retryMs = 1000;
      post({ type: "floorman:stream", open: true });
    });
    source.addEventListener("error", () => {
      post({ type: "floorman:stream", open: false });
      source.close();
      setTimeout(openStream, retryMs);
      retryMs = Math.min(retryMs * 2, 60000);
    });
    source.addEventListener("changed", (event) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      let message = null;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.user !== undefined) {
        // The viewer's own event: his turn at a table, or his chips; that table looks again.
        if (message.table === null || message.table === undefined) return;
        post({ type: "floorman:changed", table: message.table, version: null, message }, message.table);
        return;
      }
      // The table itself travels on: the frame places it without a request.
      post({ type: "floorman:changed", table: message.table, version: message.version, message });
    });
  }
  openStream();
  // The frames are of this origin: mark the tables where it is the viewer's turn.
  setInterval(() => {
    frames.forEach((frame) => {
      const state = frame.contentDocument && frame.contentDocument.getElementById("state");
      const box = frame.closest(".multi-table");
      if (box) box.classList.toggle("your-turn", Boolean(state && state.dataset.myTurn));
    });
  }, 500);
})();
