// The hall's round clock: counts down each second from the server's figures (data-remaining, data-running);
// the page reloads from the server at each turn of the rotation, so a pause made by the organizer shows then.
(function () {
  var face = document.querySelector("[data-remaining]");
  if (!face || face.dataset.running !== "yes") return;
  var end = Date.now() + 1000 * parseInt(face.dataset.remaining, 10);
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var left = Math.round((end - Date.now()) / 1000), sign = left < 0 ? "-" : "";
    left = Math.abs(left);
    var s = left % 60, text;
    if (left >= 6000) { text = Math.floor(left / 3600) + ":" + pad(Math.floor((left % 3600) / 60)); }
    else { text = pad(Math.floor(left / 60)); }
    face.textContent = sign + text + ":" + pad(s);
    face.classList.toggle("is-over", sign === "-");
  }
  tick();
  setInterval(tick, 1000);
})();
