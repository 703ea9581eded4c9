// Every page, under the Content-Security-Policy (config/settings.py, docs/architecture.md):
// htmx's settings, the nonce of scripts in swapped fragments, and the print buttons.
(() => {
  "use strict";
  const script = document.currentScript;
  // The page's nonce: the browser hides the attribute but keeps the property.
  const pageNonce = script ? script.nonce : "";
  if (window.htmx) {
    // No <style> element of htmx's own (floorman.css has the indicator's rules), no eval.
    window.htmx.config.includeIndicatorStyles = false;
    window.htmx.config.allowEval = false;
    document.addEventListener("htmx:beforeSwap", (event) => {
      // A fragment's own response carries its nonce in its policy; only the scripts the server
      // marked with it run, with the page's nonce (injected markup cannot know either).
      const xhr = event.detail.xhr;
      const policy = (xhr && xhr.getResponseHeader("Content-Security-Policy")) || "";
      const match = policy.match(/'nonce-([A-Za-z0-9_-]+)'/);
      if (!match || !pageNonce || typeof event.detail.serverResponse !== "string") return;
      event.detail.serverResponse = event.detail.serverResponse
        .split(`nonce="${match[1]}"`)
        .join(`nonce="${pageNonce}"`);
    });
  }
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-print]");
    if (button) window.print();
  });
})();
