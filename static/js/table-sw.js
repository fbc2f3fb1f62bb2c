/* Levée: a table link's pages register the link's service worker (its pages and the rules engine offline).
 * A file, not an inline script: the Content-Security-Policy (script-src 'self') refuses inline scripts. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !("serviceWorker" in navigator)) return;
  var url = me.getAttribute("data-sw"), scope = me.getAttribute("data-scope");
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, {scope: scope}).catch(function () { /* the page works without it */ });
  });
})();
