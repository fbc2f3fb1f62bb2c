// The pages' small actions without inline handlers, which the Content-Security-Policy forbids in production
// (script-src 'self'): a button with data-ask asks that question before it submits its form (« Abandonne »,
// « Révoquer », « Réunir »…), a button with data-print prints the page (the table and player cards). One
// listener for the whole document, in the capture phase, so that a refused question stops htmx's submit too.
document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element)) return;
  const asking = event.target.closest("[data-ask]");
  if (asking && !window.confirm(asking.dataset.ask)) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  const printing = event.target.closest("[data-print]");
  if (printing) {
    event.preventDefault();
    window.print();
  }
}, true);
