/* Levée — « Se déconnecter » on a tablet shared at the venue (no framework, no build step).
 *
 * What an arbiter keeps on the device (static/js/offline-entry.js: the deals waiting in the outbox, the drafts;
 * the tap page's draft) carries his opaque mark (body[data-keeper]) and is never shown to, nor sent by, the next
 * one to sign in. Logging out:
 *  * with deals of his still not saved on the server (waiting for the network, or refused and to be taken back),
 *    the dialog #logout-kept says how many and offers to send them first (their table's page, which sends them
 *    when it opens), to keep them for him alone and log out (they come back when he signs in again on this device),
 *    or to stay signed in; nothing he typed is lost;
 *  * then the lines already sent are dropped, and the copies of the desk's pages the service workers kept for
 *    offline use (their caches, « levee-desk-… ») go with their workers: the next arbiter opening a page without
 *    network never gets this one's.
 * Signed in again, a page says when deals of his wait on this device (#kept-waiting, a link to their table).
 */
(function () {
  "use strict";
  var form = document.querySelector("form[data-logout]");
  var dialog = document.getElementById("logout-kept");
  var keeper = (document.body && document.body.dataset.keeper) || "";
  if (!form || !keeper || !window.indexedDB) return;

  function open() {  // the same base as offline-entry.js (its version, its stores)
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open("levee-offline", 1);
      req.onupgradeneeded = function () {
        var db = req.result;
        if (!db.objectStoreNames.contains("drafts")) db.createObjectStore("drafts", {keyPath: "where"});
        if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", {keyPath: "key"});
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }
  function outbox() {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var req = db.transaction("outbox", "readonly").objectStore("outbox").getAll();
        req.onsuccess = function () { resolve(req.result || []); };
        req.onerror = function () { reject(req.error); };
      });
    });
  }
  function unsent() {  // this arbiter's deals not saved on the server, oldest first
    return outbox().then(function (items) {
      return items.filter(function (i) { return i.keeper === keeper && (i.state === "waiting" || i.state === "refused"); })
        .sort(function (a, b) { return a.at - b.at; });
    }, function () { return []; });
  }
  function dropSent() {
    return open().then(function (db) {
      return new Promise(function (resolve) {
        var t = db.transaction("outbox", "readwrite"), store = t.objectStore("outbox");
        var req = store.getAll();
        req.onsuccess = function () {
          (req.result || []).forEach(function (i) { if (i.keeper === keeper && i.state === "sent") store.delete(i.key); });
        };
        t.oncomplete = resolve;
        t.onerror = resolve;
      });
    }, function () { return null; });
  }
  function forgetPages() {  // the desk's pages kept for offline use, and the workers that serve them
    var work = [];
    if (window.caches) {
      work.push(caches.keys().then(function (keys) {
        return Promise.all(keys.filter(function (k) { return k.indexOf("levee-desk-") === 0; })
          .map(function (k) { return caches.delete(k); }));
      }).catch(function () { return null; }));
    }
    if (navigator.serviceWorker && navigator.serviceWorker.getRegistrations) {
      work.push(navigator.serviceWorker.getRegistrations().then(function (regs) {
        return Promise.all(regs.filter(function (r) { return new URL(r.scope).pathname.indexOf("/desk/") === 0; })
          .map(function (r) { return r.unregister(); }));
      }).catch(function () { return null; }));
    }
    return Promise.all(work);
  }
  function count(words, n) {
    return (n === 1 ? words.one : words.many).replace("{n}", String(n));
  }

  var leaving = false;
  function leave() {
    leaving = true;
    Promise.all([dropSent(), forgetPages()]).then(function () { HTMLFormElement.prototype.submit.call(form); });
  }
  form.addEventListener("submit", function (event) {
    if (leaving) return;
    event.preventDefault();
    unsent().then(function (items) {
      if (!items.length || !dialog || !dialog.showModal) { leave(); return; }
      dialog.querySelector(".logout-kept-count").textContent = count(dialog.dataset, items.length);
      dialog.querySelector(".logout-kept-send").href = items[0].page || items[0].where;
      dialog.showModal();
    });
  });
  if (dialog) {
    dialog.querySelector(".logout-kept-keep").addEventListener("click", function () { dialog.close(); leave(); });
    dialog.querySelector(".logout-kept-stay").addEventListener("click", function () { dialog.close(); });
  }

  /* signed in again (or on another page): deals of his waiting on this device are said, with their table's page,
     except on an entry page (its own box and list say its table's) */
  var note = document.getElementById("kept-waiting");
  if (note && !document.getElementById("offline-entry")) {
    unsent().then(function (items) {
      var elsewhere = items.filter(function (i) { return i.where !== location.pathname; });
      if (!elsewhere.length || items.length !== elsewhere.length) return;
      note.querySelector(".kept-waiting-count").textContent = count(note.dataset, items.length);
      note.querySelector("a").href = items[0].page || items[0].where;
      note.className = "msg msg-warning";
      note.setAttribute("role", "status");
      note.hidden = false;
    });
  }
})();
