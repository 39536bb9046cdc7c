// A button with data-copy="<selector>" copies that field's value to the clipboard and says
// so on itself for a moment (data-copied), e.g. the invitation link on an open game's page.
// Delegated from the document: the play region is swapped by htmx and the button with it.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) {
    return;
  }
  var field = document.querySelector(button.dataset.copy);
  if (!field) {
    return;
  }
  var label = button.textContent;
  function done() {
    button.textContent = button.dataset.copied || label;
    setTimeout(function () {
      button.textContent = label;
    }, 2000);
  }
  field.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, function () {
      document.execCommand("copy");
      done();
    });
  } else {
    document.execCommand("copy");
    done();
  }
});
