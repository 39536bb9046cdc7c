// The sign-up form's hidden time_zone field takes the browser's time zone, so a new
// account shows times in the player's own zone from the first page (games.signup).
document.addEventListener("DOMContentLoaded", function () {
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    return;
  }
  document.querySelectorAll('input[type="hidden"][name="time_zone"]').forEach(function (field) {
    if (!field.value) {
      field.value = zone;
    }
  });
});
