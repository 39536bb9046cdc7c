// The Verdant turn builder's live score: ticking an answer shows the score the turn
// would give with it at once. The server sends each answer's score with the question
// (data-preview, from the engine), so no rule is written here and nothing is asked of
// the server until "Next". One listener on the document: it outlives htmx's swaps.
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.hasAttribute("data-preview")) return;
    var builder = input.closest("#turn-builder");
    var after = builder && builder.querySelector("[data-preview-after]");
    if (!after) return;
    var words = after.getAttribute("data-words") || "{n}";
    after.querySelector("strong").textContent = words.replace("{n}", input.getAttribute("data-preview"));
    after.hidden = false;
  });
})();
