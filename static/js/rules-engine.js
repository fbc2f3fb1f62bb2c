/* Levée: the rules engine on the device, for the tap page without network (window.LeveeEngine).
 *
 * The server answers the tap page after each card; when it cannot be reached, the page asks this engine, which
 * runs the server's own Python (rules/ and scoring/, through scoring.tap.answer_json) in Pyodide, in a worker
 * (rules-engine-worker.js). Nothing is loaded with the page: once it is usable and the table's service worker
 * holds it, warm() fetches the engine's files so that the service worker keeps them (nothing is fetched again
 * once kept), then, once they are kept and the page is idle, starts Pyodide in its worker in the background (once per
 * page): a network cut finds the engine ready, rather than 10 to 18 s of Pyodide's start without checks (a walk).
 * ask() starts it if it is not yet. The server stays the judge at save.
 *
 * config (from the page, tournaments/desk/engine.py): {pyodide, rules, worker, files, head, match}.
 */
(function () {
  "use strict";

  var worker = null;
  var starting = null;
  var waiting = {};
  var asked = 0;
  var warmed = null;

  function start(config) {
    if (starting) return starting;
    starting = new Promise(function (resolve, reject) {
      try {
        worker = new Worker(config.worker, {type: "module"});
      } catch (e) { reject(e); return; }
      worker.onmessage = function (event) {
        var message = event.data || {};
        if (message.type === "ready") {
          LeveeEngine.bootMs = message.ms; LeveeEngine.pythonMs = message.pythonMs; resolve();
        }
        else if (message.type === "failed") reject(new Error(message.error));
        else if (message.type === "answer" && waiting[message.id]) {
          var done = waiting[message.id];
          delete waiting[message.id];
          if (message.error) done.reject(new Error(message.error));
          else done.resolve(JSON.parse(message.text));
        }
      };
      worker.onerror = function (event) { reject(new Error(event.message || "worker")); };
      worker.postMessage({type: "boot", config: {pyodide: config.pyodide, rules: config.rules}});
    });
    starting.catch(function (error) { LeveeEngine.error = String(error); starting = null; if (worker) worker.terminate(); worker = null; });
    return starting;
  }

  /* where the play stands after `cards` under the deal's declarations `fields`: the server's answer, from the
     device (the record's head and the match so far come with the page) */
  function ask(config, fields, cards, lang) {
    return start(config).then(function () {
      return new Promise(function (resolve, reject) {
        asked += 1;
        waiting[asked] = {resolve: resolve, reject: reject};
        var record = Object.assign({}, fields, config.head);
        worker.postMessage({type: "ask", id: asked, text: JSON.stringify({record: record, cards: cards,
          lang: lang || "fr", match: config.match})});
      });
    });
  }

  /* whether the service worker holds `url` (it stores a copy after answering: waited for, up to 20 s) */
  function kept(url) {
    var tries = 0;
    function look() {
      return caches.match(url, {ignoreVary: true}).then(function (hit) {
        if (hit || ++tries > 100) return !!hit;
        return new Promise(function (resolve) { setTimeout(resolve, 200); }).then(look);
      });
    }
    return look();
  }

  /* when the page has nothing else to do (a tap, a render first) */
  function idle(fn) {
    if (window.requestIdleCallback) window.requestIdleCallback(fn, {timeout: 5000});
    else setTimeout(fn, 1000);
  }

  /* fetch the engine's files once the page is usable, only where the table's service worker keeps them */
  function warm(config) {
    if (warmed || !("serviceWorker" in navigator)) return warmed;
    warmed = navigator.serviceWorker.ready.then(function () {
      if (navigator.serviceWorker.controller) return null;
      return new Promise(function (resolve) {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true});
      });
    }).then(function () {
      return Promise.all(config.files.map(function (url) {
        return fetch(url, {credentials: "same-origin"}).then(function (r) { return r.ok ? r.blob() : null; })
          .catch(function () { return null; });
      }));
    }).then(function () {
      return Promise.all(config.files.map(kept));
    }).then(function (all) {
      LeveeEngine.warm = all.every(Boolean);
      // the files kept on this device: the engine started now, in the background, from them (no network used)
      if (LeveeEngine.warm) idle(function () {
        LeveeEngine.warmStartedAt = performance.now();
        start(config).catch(function () { /* started again when asked */ });
      });
      return LeveeEngine.warm;
    });
    return warmed;
  }

  var LeveeEngine = window.LeveeEngine = {ask: ask, start: start, warmUp: warm, warm: false, bootMs: null, pythonMs: null,
    error: null, warmStartedAt: null};
})();
