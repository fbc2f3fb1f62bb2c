/* The chief's ruling (ruling_form.html): a penalty from the rules that belongs to a kind (maldonne, renonce) checks
   that kind when the chief left it at « autre » (or none), or when it was checked here for an earlier choice; a kind
   he chose himself is kept. The server files it so anyway (rulings.ruling_record). No inline code (the page's
   Content-Security-Policy): the kinds come from the json_script « preset-kinds ». */
(function () {
  "use strict";
  var data = document.getElementById("preset-kinds");
  if (!data) return;
  var kinds = JSON.parse(data.textContent);
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || !input.form) return;
    if (input.name === "kind") {
      if (event.isTrusted) delete input.form.dataset.kindAuto;  // the chief's own choice: kept from now on
      return;
    }
    if (input.name !== "penalty") return;
    var kind = kinds[input.value];
    var form = input.form;
    var checked = form.querySelector('input[name="kind"]:checked');
    if (checked && checked.value !== "other" && !form.dataset.kindAuto) return;
    if (!kind) return;
    var target = form.querySelector('input[name="kind"][value="' + kind + '"]');
    if (!target) return;
    target.checked = true;
    form.dataset.kindAuto = "1";
    target.dispatchEvent(new Event("change", { bubbles: true }));  // the kept draft (offline-entry.js) sees it
  });
})();
