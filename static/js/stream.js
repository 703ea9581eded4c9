// The online tables' stream, one per tab (tables/online/live.py), for a table's page (table.js)
// and "My tables" (multi.js). When it drops, ends or is refused (a 204: the server holds none),
// it is opened again after a pause, 1 s (within the grace before a drop shows) doubling to a
// minute, with the id of the last message it had (?last=): the server sends what the tab
// missed, or the tables as they stand if that is gone.
(() => {
  "use strict";
  const FIRST_RETRY_MS = 1000;
  const LAST_RETRY_MS = 60000;
  // handlers: message(parsed "changed" message), and optionally open() and drop().
  window.floormanTableStream = (streamUrl, handlers) => {
    let source = null;
    let lastEventId = "";
    let retryMs = FIRST_RETRY_MS;
    function open() {
      if (!streamUrl || !("EventSource" in window) || source) return;
      const joiner = streamUrl.includes("?") ? "&" : "?";
      const url = lastEventId ? `${streamUrl}${joiner}last=${encodeURIComponent(lastEventId)}` : streamUrl;
      const mine = new EventSource(url);
      source = mine;
      mine.addEventListener("open", () => {
        retryMs = FIRST_RETRY_MS;
        if (handlers.open) handlers.open();
      });
      mine.addEventListener("changed", (event) => {
        if (event.lastEventId) lastEventId = event.lastEventId;
        let message = null;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        handlers.message(message);
      });
      mine.addEventListener("error", () => {
        mine.close();
        if (source !== mine) return;
        source = null;
        if (handlers.drop) handlers.drop();
        setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
      });
    }
    return { open };
  };
})();
