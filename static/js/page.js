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
  // A failed request explained in the page's language (base.html's #page-error holds the
  // texts): the server's own reason when it sent one as plain text (bad input, a refused
  // move), else what its status means; never the markup of an error page (a 500, a proxy's
  // 502, a stale form's 403). table.js explains its own moves' failures with it.
  const problem = document.getElementById("page-error");
  function explain(status, type, text) {
    if ((type || "").startsWith("text/plain") && text && text.trim()) return text.trim();
    const says = problem ? problem.dataset : {};
    if (!status) return says.offline || "";
    if (status >= 500) return says.server || "";
    if (status === 404 || status === 410) return says.gone || "";
    return says.refused || "";
  }
  window.floormanExplain = explain;
  function showProblem(text) {
    if (!problem) return;
    problem.textContent = text;
    problem.hidden = !text;
  }
  // htmx swaps no error answer (the pages' responseHandling): without this a floor action
  // that failed showed nothing at all.
  document.addEventListener("htmx:responseError", (event) => {
    const xhr = event.detail.xhr;
    showProblem(explain(xhr.status, xhr.getResponseHeader("Content-Type"), xhr.responseText));
  });
  document.addEventListener("htmx:sendError", () => showProblem(explain(0, "", "")));
  document.addEventListener("htmx:afterRequest", (event) => {
    // An action that went through says the problem is over; a poll's answer does not.
    const verb = event.detail.requestConfig ? event.detail.requestConfig.verb : "get";
    if (event.detail.successful && verb !== "get") showProblem("");
  });
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-print]");
    if (button) window.print();
  });
})();
