// Progressive enhancement only: the game page works without this file.
// - Arrow keys move between the highlighted spaces of your planet.
// - After htmx swaps the play region, keep keyboard focus somewhere sensible.
// - On the replay page, the left/right arrow keys go to the previous/next move.
// - Deadlines in the status area count down every minute (the server's text stays until then).
(function () {
  "use strict";

  function nearest(buttons, from, dx, dy) {
    var a = from.getBoundingClientRect();
    var best = null, bestScore = Infinity;
    buttons.forEach(function (b) {
      if (b === from) return;
      var r = b.getBoundingClientRect();
      var mx = r.left - a.left, my = r.top - a.top;
      var along = mx * dx + my * dy;
      if (along <= 0) return;
      var score = along + 2 * Math.abs(mx * dy + my * dx);
      if (score < bestScore) { bestScore = score; best = b; }
    });
    return best;
  }

  var DIRS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var dir = DIRS[event.key];
    if (!dir || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && target.classList && target.classList.contains("space-button")) {
      var buttons = Array.prototype.slice.call(target.parentNode.querySelectorAll(".space-button"));
      var next = nearest(buttons, target, dir[0], dir[1]);
      if (next) { next.focus(); event.preventDefault(); }
      return;
    }
    var tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var nav = document.querySelector("[data-replay-nav]");
    if (nav && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      var link = nav.querySelector('[data-key="' + event.key + '"]:not(.is-disabled)');
      if (link) { window.location.href = link.href; event.preventDefault(); }
    }
  });

  // Time left as "1 day, 3 hours" in the page's language (the two largest units).
  function timeLeft(ms, lang) {
    var minutes = Math.floor(ms / 60000);
    var parts = [["day", Math.floor(minutes / 1440)], ["hour", Math.floor(minutes / 60) % 24],
                 ["minute", minutes % 60]];
    var shown = [];
    for (var i = 0; i < parts.length && shown.length < 2; i++) {
      if (parts[i][1] > 0 || (shown.length === 0 && i === parts.length - 1)) {
        shown.push(new Intl.NumberFormat(lang, {
          style: "unit", unit: parts[i][0], unitDisplay: "long"
        }).format(parts[i][1]));
      } else if (shown.length) {
        break;  // like Django's timeuntil: adjacent units only
      }
    }
    return shown.join(", ");
  }

  function tick() {
    var lang = document.documentElement.lang || undefined;
    var now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var end = Date.parse(el.getAttribute("data-countdown"));
      if (isNaN(end)) return;
      try {
        var left = el.querySelector(".countdown");
        if (end > now && left) {
          left.textContent = timeLeft(end - now, lang);
        } else if (end <= now) {
          el.textContent = el.getAttribute("data-overdue");
          el.removeAttribute("data-countdown");
        }
      } catch (e) { /* a browser without Intl unit formats keeps the server's text */ }
    });
  }

  if (window.Intl && Intl.NumberFormat) {
    window.setInterval(tick, 60000);
  }

  // Only after the player's own step (a POST): a poll never moves the focus.
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || String(config.verb).toLowerCase() !== "post") return;
    var active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active)) return;
    var alert = document.querySelector("#play [role=alert]");
    var first = document.querySelector("#play .space-button");
    var prompt = document.getElementById("turn-prompt");
    var target = alert || first || prompt || document.getElementById("status-line");
    if (target) target.focus();
  });
})();
