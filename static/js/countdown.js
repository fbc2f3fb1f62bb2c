// Count down every [data-deadline] (an ISO date) as « mm:ss » (or « h h mm »), after its data-prefix if it has one.
// At the deadline: the box around it that holds data-official becomes that text (« ✓ Manche 1 : résultats
// officiels »), else the element shows its data-done text.
(function () {
  function pad(n) { return String(n).padStart(2, "0"); }
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      if (isNaN(left)) return;
      if (left <= 0) {
        var box = el.closest("[data-official]");
        if (box) {
          box.textContent = box.dataset.official;
          box.className = "appeal appeal-official";
          box.removeAttribute("style");
          box.removeAttribute("data-official");
        } else {
          el.textContent = el.dataset.done || "0:00";
        }
        return;
      }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      var shown = h ? h + " h " + pad(m) : m + ":" + pad(s);
      el.textContent = el.dataset.prefix ? el.dataset.prefix + " " + shown : shown;
    });
  }
  if (window.__leveeCountdown) return;
  window.__leveeCountdown = setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();
