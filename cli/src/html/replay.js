// The replay page: steps through the events embedded in #data, drawing each step's board,
// its sight line or dice, and the log so far. `#step=N` (from 0) or `#step=end` opens a step.
// When it has drawn, it writes a self-check into #selfcheck for headless browser tests.
"use strict";
(function () {
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message)); report(); });
  var NS = "http://www.w3.org/2000/svg";
  var D = JSON.parse(document.getElementById("data").textContent);
  var S = D.map.cell;
  var steps = D.steps;
  var at = 0;
  var $ = function (id) { return document.getElementById(id); };

  function el(name, attrs, parent) {
    var n = document.createElementNS(NS, name);
    for (var k in attrs) { n.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(n); }
    return n;
  }
  function html(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) { n.className = cls; }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }
  function clear(n) { while (n.firstChild) { n.removeChild(n.firstChild); } }
  function centre(v) { return v * S + S / 2; }

  // Piece arrays: [id, unit, side, label, kind, x, y, health, max, flags, holds].
  function findPiece(pieces, id) {
    for (var i = 0; i < pieces.length; i++) { if (pieces[i][0] === id) { return pieces[i]; } }
    for (var j = 0; j < pieces.length; j++) { if (pieces[j][1] === id) { return pieces[j]; } }
    return null;
  }

  // Squares a model or Blip stands on: a token there is drawn small in the corner, under it.
  function occupied(pieces) {
    var taken = {};
    pieces.forEach(function (p) { if (p[2] !== "token" && p[2] !== "ruin") { taken[p[5] + "," + p[6]] = true; } });
    return taken;
  }

  function drawPieces(pieces, active) {
    var g = $("pieces");
    clear(g);
    var taken = occupied(pieces);
    // Tokens first, so a model standing on one is drawn over it.
    var order = pieces.filter(function (p) { return p[2] === "token"; })
      .concat(pieces.filter(function (p) { return p[2] !== "token"; }));
    order.forEach(function (p) {
      if (p[2] === "ruin") {
        // A Ruined Wall: the wall's edge (east or south of the square) as an opening.
        var east = p[9] === "east";
        var at = { x1: (p[5] + (east ? 1 : 0)) * S, y1: (p[6] + (east ? 0 : 1)) * S };
        at.x2 = at.x1 + (east ? 0 : S);
        at.y2 = at.y1 + (east ? S : 0);
        el("line", { "class": "gap", x1: at.x1, y1: at.y1, x2: at.x2, y2: at.y2 }, g);
        el("line", { "class": "ruined", x1: at.x1, y1: at.y1, x2: at.x2, y2: at.y2 }, g);
        return;
      }
      var under = p[2] === "token" && taken[p[5] + "," + p[6]];
      var cls = "piece " + p[2] + (under ? " under" : "") + (p[9] ? " " + p[9] : "") + (active && p[1] === active ? " active" : "");
      var grp = el("g", { "class": cls, "data-id": p[0], "data-unit": p[1], "data-x": p[5], "data-y": p[6],
        transform: "translate(" + p[5] * S + " " + p[6] * S + ")" }, g);
      var tip = p[0] + (p[4] ? " (" + p[4] + ")" : "") + " at " + p[5] + "," + p[6];
      if (p[8] > 0) { tip += ", health " + p[7] + "/" + p[8]; }
      if (p[9]) { tip += ", " + p[9].replace(/-/g, " "); }
      if (p[10]) { tip += ", holds " + p[10]; }
      el("title", {}, grp).textContent = tip;
      if (under) {
        // In the corner the model's disc leaves free.
        el("rect", { x: 0, y: 0, width: 12, height: 12, rx: 2 }, grp);
        el("text", { x: 6, y: 6.5 }, grp).textContent = p[3];
        return;
      }
      if (p[2] === "token") {
        el("rect", { x: 7, y: 7, width: S - 14, height: S - 14, rx: 3 }, grp);
      }
      // An XXL model fills its 2×2 base from its top-left square.
      var Z = /\bxxl\b/.test(p[9]) ? 2 * S : S;
      if (p[2] !== "token") {
        el("circle", { cx: Z / 2, cy: Z / 2, r: Z / 2 - 3 }, grp);
      }
      el("text", { x: Z / 2, y: Z / 2 }, grp).textContent = p[3];
      if (p[8] > 1) {
        var w = (Z - 8) / p[8];
        for (var i = 0; i < p[8]; i++) {
          el("rect", { "class": i < p[7] ? "hp" : "hp-lost", x: 4 + i * w, y: Z - 4, width: Math.max(w - 1, 1), height: 3 }, grp);
        }
      }
    });
  }

  function line(g, cls, x1, y1, x2, y2) {
    return el("line", { "class": cls, x1: x1, y1: y1, x2: x2, y2: y2 }, g);
  }

  // A die face as shapes (no font needs a glyph for it): a dot a hit, two a double hit, a
  // star a critical, a shield and two shields; a blank is left blank.
  var SHIELD = "M0 -6 L5 -4 L5 0 Q5 5 0 7 Q-5 5 -5 0 L-5 -4 Z";
  function star() {
    var pts = [];
    for (var i = 0; i < 10; i++) {
      var r = i % 2 ? 3 : 8, a = Math.PI * i / 5 - Math.PI / 2;
      pts.push((r * Math.cos(a)).toFixed(2) + "," + (r * Math.sin(a)).toFixed(2));
    }
    return pts.join(" ");
  }
  function faceSvg(f) {
    var svg = el("svg", { viewBox: "-10 -10 20 20", width: 20, height: 20, "class": "face" });
    var shapes = {
      hit: [["circle", { cx: 0, cy: 0, r: 4 }]],
      double_hit: [["circle", { cx: -4, cy: 0, r: 3.2 }], ["circle", { cx: 4, cy: 0, r: 3.2 }]],
      critical: [["polygon", { points: star() }]],
      shield: [["path", { d: SHIELD }]],
      double_shield: [["path", { d: SHIELD, transform: "translate(-4 0) scale(0.75)" }],
        ["path", { d: SHIELD, transform: "translate(4 0) scale(0.75)" }]]
    }[f] || [];
    shapes.forEach(function (s) { el(s[0], s[1], svg); });
    return svg;
  }
  // Which faces count for the side that rolled them (docs/RULES.md §6.1).
  var COUNTS = { attack: { hit: 1, double_hit: 1, critical: 1 }, defence: { shield: 1, double_shield: 1 } };
  function dice(faces, cls) {
    var row = html("div", "dice");
    faces.forEach(function (f) {
      var counts = COUNTS[cls] && COUNTS[cls][f];
      var d = html("span", "die " + cls + " " + f + (counts ? "" : " dud"));
      if (f !== "blank") { d.appendChild(faceSvg(f)); }
      d.title = f.replace(/_/g, " ") + (counts ? "" : " (counts nothing for the " + (cls === "attack" ? "attacker" : "defender") + ")");
      row.appendChild(d);
    });
    if (!faces.length) { row.appendChild(html("span", "muted", "no dice")); }
    return row;
  }

  function drawOverlay(step, pieces) {
    var g = $("sight");
    clear(g);
    var detail = $("detail");
    clear(detail);
    if (step.reload) { detail.appendChild(html("p", "line reload", "Hot reload before this action: " + step.reload)); }
    detail.appendChild(html("p", "line", step.text || step.ev.event.replace(/_/g, " ")));
    var e = step.ev;
    if (e.event === "moved" && e.path && e.path.length > 1) {
      el("polyline", { "class": "path", points: e.path.map(function (p) { return centre(p[0]) + "," + centre(p[1]); }).join(" ") }, g);
    }
    if (e.event === "blip_revealed") {
      el("rect", { "class": "mark", x: e.at[0] * S + 2, y: e.at[1] * S + 2, width: S - 4, height: S - 4 }, g);
      if (step.witness) {
        var l = step.witness.line;
        line(g, "sight", l[0] * S, l[1] * S, l[2] * S, l[3] * S);
        detail.appendChild(html("p", "line mods", "Sight line: " + step.witness.text));
      } else {
        detail.appendChild(html("p", "line mods", "No sight line: revealed by " + e.cause + "."));
      }
    }
    if (e.event === "attack") {
      var target = findPiece(pieces, e.target);
      var from = (e.from && e.from.length) ? e.from.map(function (c) { return c.model; }) : [e.attacker];
      from.forEach(function (id) {
        var a = findPiece(pieces, id);
        if (a && target) { line(g, "attack-line", centre(a[5]), centre(a[6]), centre(target[5]), centre(target[6])); }
      });
      detail.appendChild(html("p", "line mods", e.kind.replace(/_/g, " ") + ": " + e.attacker + " → " + e.target +
        ", CV " + e.cv + ", " + e.dice + " dice"));
      detail.appendChild(dice(e.faces || [], "attack"));
      detail.appendChild(html("p", "line mods", "Defence: " + e.defence_dice + " dice"));
      detail.appendChild(dice(e.defence_faces || [], "defence"));
      detail.appendChild(html("p", "line mods dice-key", "Key: the attacker counts a hit (one dot) 1, " +
        "a double hit (two dots) 2 and a critical (star) 1, which no shield stops; the defender counts a " +
        "shield 1 and a double shield 2, each stopping a hit; a blank and the other side's faces count nothing."));
      var mods = (e.modifiers || []).map(function (m) {
        return m.on + " " + (m.change > 0 ? "+" : "") + m.change + " (" + m.cause.replace(/_/g, " ") + (m.source ? " " + m.source : "") + ")";
      });
      detail.appendChild(html("p", "line mods", "Hits " + e.hits + ", crits " + e.crits + ", shields " + e.shields +
        " → damage " + e.damage + (mods.length ? "; " + mods.join(", ") : "")));
    }
  }

  var logItems = [];
  function buildLog() {
    var log = $("log");
    steps.forEach(function (s, i) {
      if (s.reload) {
        var mark = html("li", "reload", "⟳ " + s.reload);
        mark.value = i;
        mark.addEventListener("click", function () { go(i); });
        log.appendChild(mark);
      }
      var li = html("li", s.ev.event === "round_started" ? "round" : "", s.text || s.ev.event.replace(/_/g, " "));
      li.value = i;
      li.addEventListener("click", function () { go(i); });
      log.appendChild(li);
      logItems.push(li);
    });
  }

  var shown = -1;
  function show(i) {
    at = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[at];
    var pieces = D.frames[step.frame] || [];
    var active = null;
    for (var k = at; k >= 0; k--) {
      var ev = steps[k].ev.event;
      if (ev === "activation_ended" || ev === "phase_started") { break; }
      if (ev === "activation_started") { active = steps[k].ev.unit; break; }
    }
    drawPieces(pieces, active);
    drawOverlay(step, pieces);
    var from = shown < 0 ? 0 : Math.min(shown, at);
    var to = shown < 0 ? steps.length - 1 : Math.max(shown, at);
    for (var j = from; j <= to; j++) {
      logItems[j].className = (steps[j].ev.event === "round_started" ? "round " : "") + (j > at ? "future" : j === at ? "current" : "");
    }
    shown = at;
    var log = $("log");
    var cur = logItems[at];
    if (cur.offsetTop < log.scrollTop || cur.offsetTop + cur.offsetHeight > log.scrollTop + log.clientHeight) {
      log.scrollTop = Math.max(0, cur.offsetTop - log.clientHeight / 2);
    }
    $("slider").value = at;
    $("where").textContent = "step " + at + " of " + (steps.length - 1) + " · round " + step.round +
      " · action " + step.action + " of " + D.actions;
    $("board").setAttribute("data-step", at);
    var want = at === steps.length - 1 ? "end" : String(at);
    if (location.hash !== "#step=" + want && history.replaceState) {
      history.replaceState(null, "", "#step=" + want);
    }
  }
  function go(i) { show(i); }

  function nextWhere(pred, dir) {
    for (var i = at + dir; i >= 0 && i < steps.length; i += dir) { if (pred(steps[i], i)) { return i; } }
    return dir > 0 ? steps.length - 1 : 0;
  }
  var nextAction = function () { var a = steps[at].action; return nextWhere(function (s) { return s.action > a; }, 1); };
  var prevAction = function () {
    var a = steps[at].action;
    var i = nextWhere(function (s) { return s.action < a; }, -1);
    var b = steps[i].action;
    while (i > 0 && steps[i - 1].action === b) { i--; }
    return i;
  };
  var isRound = function (s) { return s.ev.event === "round_started"; };
  var nextRound = function () { return nextWhere(isRound, 1); };
  var prevRound = function () {
    var i = nextWhere(isRound, -1);
    return i === at - 1 ? nextWhere(function (s, k) { return k < i && isRound(s); }, -1) : i;
  };

  function wire() {
    var slider = $("slider");
    slider.max = steps.length - 1;
    slider.addEventListener("input", function () { go(Number(slider.value)); });
    var buttons = {
      first: function () { return 0; }, last: function () { return steps.length - 1; },
      prev: function () { return at - 1; }, next: function () { return at + 1; },
      "next-action": nextAction, "prev-action": prevAction, "next-round": nextRound, "prev-round": prevRound
    };
    Object.keys(buttons).forEach(function (id) { $(id).addEventListener("click", function () { go(buttons[id]()); }); });
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") { return; }
      var k = e.key, to = null;
      if (k === "ArrowRight") { to = e.shiftKey ? nextAction() : at + 1; }
      else if (k === "ArrowLeft") { to = e.shiftKey ? prevAction() : at - 1; }
      else if (k === "a") { to = nextAction(); } else if (k === "A") { to = prevAction(); }
      else if (k === "r") { to = nextRound(); } else if (k === "R") { to = prevRound(); }
      else if (k === "Home") { to = 0; } else if (k === "End") { to = steps.length - 1; }
      if (to !== null) { e.preventDefault(); go(to); }
    });
    window.addEventListener("hashchange", function () { go(fromHash()); });
  }

  function fromHash() {
    var m = /step=(end|\d+)/.exec(location.hash);
    if (!m) { return 0; }
    return m[1] === "end" ? steps.length - 1 : Number(m[1]);
  }

  function report() {
    var out = $("selfcheck");
    if (!out) { return; }
    var cells = document.querySelectorAll("#cells rect.cell").length;
    var ok = errors.length === 0 && cells === D.map.w * D.map.h && steps.length > 0;
    out.setAttribute("data-cells", String(cells));
    out.setAttribute("data-squares", String(D.map.w * D.map.h));
    out.setAttribute("data-step", String(at));
    out.setAttribute("data-last", String(steps.length - 1));
    out.setAttribute("data-errors", errors.join(" | "));
    // Tokens with a model or Blip on their square, and how many of all tokens are hidden (the
    // middle of each, as drawn, is not the token itself).
    var hidden = 0, under = document.querySelectorAll("#pieces g.piece.token.under").length;
    Array.prototype.forEach.call(document.querySelectorAll("#pieces g.piece.token"), function (g) {
      var r = g.querySelector("rect").getBoundingClientRect();
      var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      var top = hit && hit.closest ? hit.closest("g.piece") : null;
      if (top !== g) { hidden++; }
    });
    out.setAttribute("data-tokens-under", String(under));
    out.setAttribute("data-tokens-hidden", String(hidden));
    // The layout as drawn: the log beside the board, or below it on a narrow screen.
    var t = $("table").getBoundingClientRect(), side = $("side").getBoundingClientRect();
    out.setAttribute("data-layout", side.top >= t.bottom - 1 ? "stacked" : "side-by-side");
    out.setAttribute("data-board-width", String(Math.round($("board").getBoundingClientRect().width)));
    out.setAttribute("data-viewport", String(window.innerWidth));
    out.setAttribute("data-page-width", String(document.documentElement.scrollWidth));
    out.textContent = ok ? "selfcheck: ok" : "selfcheck: FAILED " + errors.join(" | ");
    // Framed (a test's phone-sized frame): tell the page around it.
    if (window.parent !== window) { window.parent.postMessage(out.outerHTML, "*"); }
  }

  // `#selftest`: drive the controls as a person would (buttons, keys, the slider) and check
  // where each lands; the result goes into #selfcheck's data-selftest for the browser test.
  function selftest() {
    if (steps.length < 8) { return "too short to test"; }
    var fails = [];
    var expect = function (what, ok) { if (!ok) { fails.push(what + " (at " + at + ")"); } };
    var click = function (id) { $(id).click(); };
    var key = function (k, shift) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: k, shiftKey: !!shift, bubbles: true }));
    };
    go(0);
    click("next"); click("next"); expect("next twice", at === 2);
    click("prev"); expect("prev", at === 1);
    key("ArrowRight"); expect("→", at === 2);
    key("ArrowLeft"); expect("←", at === 1);
    var a = steps[at].action;
    click("next-action"); expect("next action", steps[at].action === a + 1 && steps[at - 1].action === a);
    key("a"); expect("a", steps[at].action === a + 2 && steps[at - 1].action === a + 1);
    key("A"); expect("A", steps[at].action === a + 1 && steps[at - 1].action === a);
    go(0);
    click("next-round"); expect("next round", steps[at].ev.event === "round_started" && steps[at].round === 1);
    click("next-round"); expect("next round again", steps[at].ev.event === "round_started" && steps[at].round === 2);
    key("r"); expect("r", steps[at].ev.event === "round_started" && steps[at].round === 3);
    key("R"); expect("R", steps[at].ev.event === "round_started" && steps[at].round === 2);
    click("prev-round"); expect("previous round", steps[at].round === 1);
    key("End"); expect("End", at === steps.length - 1);
    click("next"); expect("next at the end stays", at === steps.length - 1);
    key("Home"); expect("Home", at === 0);
    click("last"); expect("last", at === steps.length - 1);
    click("first"); expect("first", at === 0);
    var slider = $("slider");
    slider.value = "5"; slider.dispatchEvent(new Event("input"));
    expect("slider", at === 5);
    logItems[3].click(); expect("a log line", at === 3);
    expect("the log shows the past only", logItems[2].className.indexOf("future") < 0 &&
      logItems[4].className.indexOf("future") >= 0 && logItems[3].className.indexOf("current") >= 0);
    // The first roll: each face drawn in shapes, a blank blank, the key beside them.
    for (var k = 0; k < steps.length; k++) {
      if (steps[k].ev.event !== "attack") { continue; }
      go(k);
      var rolled = document.querySelectorAll("#detail .die");
      expect("the roll's dice", rolled.length === (steps[k].ev.faces || []).length + (steps[k].ev.defence_faces || []).length);
      Array.prototype.forEach.call(rolled, function (d) {
        var blank = d.className.indexOf("blank") >= 0;
        expect("a face as text " + JSON.stringify(d.textContent), d.textContent === "");
        expect("a face's shapes", blank ? !d.firstChild : !!d.querySelector("svg *"));
      });
      expect("the dice key", !!document.querySelector("#detail .dice-key"));
      break;
    }
    go(opened);
    return fails.length ? fails.join("; ") : "ok";
  }

  var testing = /selftest/.test(location.hash);
  var opened = fromHash();
  try {
    $("summary").textContent = (D.view === "heroes" ? "The Heroes' view" : "The Overmind's view (everything)") +
      " · " + D.actions + " actions, " + D.rounds + " rounds · " + (D.outcome || "unfinished") +
      (D.seed !== undefined ? " · seed " + D.seed : "") + " · keys: ← → event, A / Shift+A action, R / Shift+R round, Home, End";
    buildLog();
    wire();
    show(opened);
    if (testing) { $("selfcheck").setAttribute("data-selftest", selftest()); }
  } catch (e) {
    errors.push(String(e && e.message || e));
  }
  report();
})();
