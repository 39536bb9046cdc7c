// The lobby's "Start a game" form: only the chosen game's own fields and computer
// players are shown (each game has its own levels). Without this script every
// field shows, and the server refuses a computer player the chosen game does not have.
(function () {
  "use strict";

  function setUp(form) {
    var kind = form.querySelector("select[name=kind]");
    if (!kind) return; // one game only: nothing to choose
    var bot = form.querySelector("select[name=bot]");
    var defaults = bot ? JSON.parse(bot.getAttribute("data-defaults") || "{}") : {};

    function show() {
      var chosen = kind.value;
      var title = kind.options[kind.selectedIndex].text;
      form.querySelectorAll("[data-kind]").forEach(function (row) {
        // Hidden, still sent: the server reads only the chosen game's own fields.
        row.hidden = row.getAttribute("data-kind") !== chosen;
      });
      if (!bot) return;
      var keep = null;
      bot.querySelectorAll("optgroup").forEach(function (group) {
        var mine = group.label === title;
        group.hidden = !mine;
        group.disabled = !mine;
        if (mine) {
          var current = bot.options[bot.selectedIndex];
          keep = current && current.parentNode === group ? current : null;
          keep = keep || group.querySelector('option[value="' + defaults[title] + '"]');
          keep = keep || group.querySelector("option");
        }
      });
      if (keep) keep.selected = true;
    }

    kind.addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-create-game]").forEach(setUp);
  });
})();
