// Count down every [data-deadline] (an ISO date) as « mm:ss » (or « h h mm »), then write its data-done text.
(function () {
  function pad(n) { return String(n).padStart(2, "0"); }
  function tick() {
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      if (isNaN(left)) return;
      if (left <= 0) { el.textContent = el.dataset.done || "0:00"; return; }
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      el.textContent = h ? h + " h " + pad(m) : m + ":" + pad(s);
    });
  }
  if (window.__leveeCountdown) return;
  window.__leveeCountdown = setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();
