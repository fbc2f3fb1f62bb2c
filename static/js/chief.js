/* The chief arbiter's page: each list refreshes itself in place every 30 s (htmx, hx-trigger="every 30s");
   a list holding an answer being written (focus inside, typed text, an opened form) is left alone until it is
   sent. No inline code: the page's Content-Security-Policy allows scripts from the site only. */
(function () {
  "use strict";
  function busy(section) {
    if (section.contains(document.activeElement) && document.activeElement !== document.body) return true;
    if (section.querySelector("details[open]")) return true;
    var fields = section.querySelectorAll("textarea, input[type=text], input[type=radio]");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "radio" ? f.checked : f.value.trim() !== "") return true;
    }
    return false;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var section = event.detail && event.detail.elt;
    if (section && section.classList && section.classList.contains("chief-list") && busy(section)) {
      event.preventDefault();
    }
  });
  window.LeveeChief = {busy: busy};
})();
