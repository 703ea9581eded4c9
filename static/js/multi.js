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
  // The stream (static/js/stream.js): opened again after a drop with the last message's id.
  const stream = window.floormanTableStream(script.dataset.streamUrl, {
    open: () => post({ type: "floorman:stream", open: true }),
    drop: () => post({ type: "floorman:stream", open: false }),
    message: (message) => {
      if (message.user !== undefined) {
        // The viewer's own event: his turn at a table, or his chips; that table looks again.
        if (message.table === null || message.table === undefined) return;
        post({ type: "floorman:changed", table: message.table, version: null, message }, message.table);
        return;
      }
      // The table itself travels on: the frame places it without a request.
      post({ type: "floorman:changed", table: message.table, version: message.version, message });
    },
  });
  stream.open();
  // The frames are of this origin: mark the tables where it is the viewer's turn.
  setInterval(() => {
    frames.forEach((frame) => {
      const state = frame.contentDocument && frame.contentDocument.getElementById("state");
      const box = frame.closest(".multi-table");
      if (box) box.classList.toggle("your-turn", Boolean(state && state.dataset.myTurn));
    });
  }, 500);
})();
