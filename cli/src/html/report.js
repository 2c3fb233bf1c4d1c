// The balance report draws itself in SVG without a script; this only checks it in a browser:
// every chart has its figure, and no error occurred, written into #selfcheck for tests.
"use strict";
(function () {
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message)); check(); });
  function check() {
    var out = document.getElementById("selfcheck");
    var D = JSON.parse(document.getElementById("data").textContent);
    var charts = document.querySelectorAll("figure.chart svg").length;
    var bars = document.querySelectorAll("figure.chart .bar").length;
    var ok = errors.length === 0 && charts > 0 && bars > 0;
    out.setAttribute("data-charts", String(charts));
    out.setAttribute("data-bars", String(bars));
    out.setAttribute("data-runs", String(D.runs));
    out.setAttribute("data-errors", errors.join(" | "));
    out.setAttribute("data-viewport", String(window.innerWidth));
    out.setAttribute("data-page-width", String(document.documentElement.scrollWidth));
    out.textContent = ok ? "selfcheck: ok" : "selfcheck: FAILED " + errors.join(" | ");
    // Framed (a test's phone-sized frame): tell the page around it.
    if (window.parent !== window) { window.parent.postMessage(out.outerHTML, "*"); }
  }
  check();
})();
