// The staff page's search among the people to name (a long list): typing hides the names that do not match,
// accents and case ignored; a group left empty is hidden; nothing matches: a sentence says so. Without
// JavaScript every name stays listed.
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
  }
  function wire(input) {
    var list = document.querySelector(input.getAttribute("data-filter"));
    var none = document.getElementById("people-none");
    if (!list) return;
    input.addEventListener("input", function () {
      var wanted = fold(input.value);
      var shown = 0;
      list.querySelectorAll(".people-group").forEach(function (group) {
        var inGroup = 0;
        group.querySelectorAll("label.choice").forEach(function (label) {
          var match = !wanted || fold(label.textContent).indexOf(wanted) !== -1;
          var checked = label.querySelector("input").checked;
          label.hidden = !(match || checked);
          if (!label.hidden) inGroup += 1;
        });
        group.hidden = inGroup === 0;
        shown += inGroup;
      });
      if (none) none.hidden = shown !== 0;
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-filter]").forEach(wire);
  });
})();
