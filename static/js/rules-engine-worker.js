/* Levée: the rules engine on the device, in a module worker (the page stays responsive while Python starts).
 *
 * Starts Pyodide from the service's own files (never a CDN), unpacks the zip of rules/ and scoring/ that the
 * server runs, imports scoring.tap and answers each question with scoring.tap.answer_json: the same function,
 * the same JSON as the server's state view. Messages: {type: "boot", config} once, then {type: "ask", id, text};
 * answers {type: "ready", ms, pythonMs} (the start's time, Python's alone) or {type: "failed", error},
 * and {type: "answer", id, text | error}.
 */
var engine = null;

function boot(config) {
  var started = Date.now();
  return import(config.pyodide + "pyodide.mjs").then(function (module) {
    return module.loadPyodide({indexURL: config.pyodide, lockFileURL: config.pyodide + "pyodide-lock.json"});
  }).then(function (pyodide) {
    var loaded = Date.now();
    return fetch(config.rules, {credentials: "same-origin"}).then(function (response) {
      if (!response.ok) throw new Error("rules " + response.status);
      return response.arrayBuffer();
    }).then(function (zipped) {
      pyodide.unpackArchive(zipped, "zip", {extractDir: "/levee"});
      pyodide.runPython("import sys\nsys.path.insert(0, '/levee')\nimport scoring.tap");
      var answer = pyodide.pyimport("scoring.tap").answer_json;
      return {answer: answer, ms: Date.now() - started, pythonMs: loaded - started};
    });
  });
}

self.onmessage = function (event) {
  var message = event.data || {};
  if (message.type === "boot") {
    if (!engine) engine = boot(message.config);
    engine.then(function (ready) { self.postMessage({type: "ready", ms: ready.ms, pythonMs: ready.pythonMs}); },
      function (error) { self.postMessage({type: "failed", error: String(error)}); });
    return;
  }
  if (message.type === "ask" && engine) {
    engine.then(function (ready) {
      self.postMessage({type: "answer", id: message.id, text: ready.answer(message.text)});
    }).catch(function (error) {
      self.postMessage({type: "answer", id: message.id, error: String(error)});
    });
  }
};
