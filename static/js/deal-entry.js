/* Levée: a deal entered by taps, for every game (no build step; plain JS).
 *
 * Renders from the game module's description of a deal (rules/entry.py, given in #deal-entry-config):
 * the phases in table order, each declaration as a control by its kind, the pack as buttons with French
 * names. One renderer for every game: a new game needs no change here.
 *
 * The deal in progress lives in localStorage (config.storageKey) until it is saved, so a reload or a lost
 * connection loses nothing. After each card the server is asked where the play stands (seat to play, legal
 * and forbidden cards with the reason, trick winners); offline, any card not yet played can be tapped and
 * the check runs when the network is back. Saving posts the record to the same service as every other
 * entry, with an idempotency key kept with the deal, so that a double tap or a retry saves one deal.
 */
(function () {
  "use strict";
  // « Back » to this page after a save: a page the browser kept in memory would show the saved deal as still to
  // enter (its number, its choices); ask for it again (the draft of an unsaved deal is kept on the device)
  window.addEventListener("pageshow", function (event) { if (event.persisted) window.location.reload(); });

  var root = document.getElementById("deal-entry");
  var configNode = document.getElementById("deal-entry-config");
  if (!root || !configNode) return;
  var config = JSON.parse(configNode.textContent);
  var T = config.strings;
  var form = config.form;
  var players = config.players;
  var csrf = root.getAttribute("data-csrf");
  var pack = form.pack;
  var byCode = {};
  pack.forEach(function (c) { byCode[c.code] = c; });
  var SUIT_CLASS = {pique: "card-s", coeur: "card-h", carreau: "card-d", trefle: "card-c", atout: "card-t", excuse: "card-x"};

  // -- the deal in progress, kept on this device -------------------------------------------------------

  /* a new deal starts empty; a correction starts from the saved record (config.initial), its draft kept under
     its own key (per deal and version) so that it never overwrites a new deal being typed at the table */
  var correcting = !!config.correction;
  function fresh() {
    if (config.initial) {
      var start = JSON.parse(JSON.stringify(config.initial));
      if (start.values.dealer === undefined) start.values.dealer = config.dealer;
      return {v: 1, key: newKey(), values: start.values, cards: start.cards || [], hands: start.hands || null,
        handSeat: 0, reason: ""};
    }
    return {v: 1, key: newKey(), values: {dealer: config.dealer}, cards: [], hands: null, handSeat: 0};
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }
  var restored = false;
  var deal = load();
  function load() {
    try {
      var raw = localStorage.getItem(config.storageKey);
      // a draft kept before it was kept per arbiter (the table's key alone): taken over by who opens it first
      if (raw === null && config.legacyStorageKey) {
        raw = localStorage.getItem(config.legacyStorageKey);
        if (raw !== null) { localStorage.setItem(config.storageKey, raw); localStorage.removeItem(config.legacyStorageKey); }
      }
      var kept = JSON.parse(raw || "null");
      if (kept && kept.v === 1 && kept.values && Array.isArray(kept.cards)) { restored = true; return kept; }
    } catch (e) { /* a broken entry is replaced */ }
    return fresh();
  }
  var version = 0;      // bumped by every change; an answer is current only for the version it was asked for
  function keep() { version += 1; store(); }
  function store() {
    try { localStorage.setItem(config.storageKey, JSON.stringify(deal)); } catch (e) { /* private mode: kept in memory */ }
  }

  // -- small helpers ---------------------------------------------------------------------------------------

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    // the deal lives in localStorage, never in the browser's memory of the form: « Back » after a save would put
    // the saved deal's choices back on the next deal's controls (a walk, after a garde sans)
    if (tag === "input" || tag === "textarea" || tag === "select") node.setAttribute("autocomplete", "off");
    if (attrs) Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }
  function cardSpan(code) {
    var c = byCode[code];
    if (!c) return el("span", {class: "card", text: code});
    return el("span", {class: "card " + (SUIT_CLASS[c.suit] || ""), title: c.name, text: c.label});
  }
  function setPath(target, path, value) {
    var keys = path.split(".");
    var node = target;
    for (var i = 0; i < keys.length - 1; i++) {
      if (typeof node[keys[i]] !== "object" || node[keys[i]] === null) node[keys[i]] = {};
      node = node[keys[i]];
    }
    node[keys[keys.length - 1]] = value;
  }
  var openObjects = {};   // optional objects the arbiter unfolded (kept open across re-renders)
  var uid = 0;
  function nextId(prefix) { uid += 1; return prefix + "-" + uid; }

  // -- which phases this page enters ------------------------------------------------------------------

  var playing = config.mode === "play";
  // a quick summary asks only what its score needs: the fields entered card by card only (`tricks_only`) are left out
  var phases = form.phases.filter(function (p) {
    return playing ? p.kind !== "summary" : p.kind !== "play";
  }).map(function (p) {
    if (playing) return p;
    var kept = p.fields.filter(function (f) { return !f.tricks_only; });
    return kept.length === p.fields.length ? p : Object.assign({}, p, {fields: kept});
  }).filter(function (p) { return p.kind !== "declarations" || p.fields.length; });
  var trickSize = players.length;
  var tricksPerDeal = form.tricks;

  // -- declarations: one control per kind (rules/entry.py KINDS) --------------------------------------

  function visible(field, scope) {
    return (field.when || []).every(function (w) {
      var value = scope[w.field] !== undefined ? scope[w.field] : deal.values[w.field];
      if (w.filled) return value !== undefined && value !== null && value !== "" &&
        !(Array.isArray(value) && value.length === 0);
      return (w.in || []).indexOf(value) !== -1;
    });
  }

  function choiceGroup(field, scope, options, cls) {
    var name = nextId("f");
    var box = el("div", {class: "choices " + (cls || ""), role: "radiogroup", "aria-label": field.label});
    // a choice left alone is sent as its default (emit): shown ticked, the tournament's convention (the honours)
    var current = scope[field.name] === undefined ? field.default : scope[field.name];
    options.forEach(function (opt) {
      var input = el("input", {type: "radio", name: name, checked: current !== undefined && current === opt.value});
      input.addEventListener("click", function () {
        if (scope[field.name] === opt.value && !field.required && !field.nullable && field.default === undefined) {
          delete scope[field.name]; input.checked = false;  // a second tap clears an optional choice
        } else {
          scope[field.name] = opt.value;
        }
        changed();
      });
      box.appendChild(el("label", {class: "choice"}, [input, el("span", {text: opt.label})]));
    });
    return box;
  }

  function seatOptions() {
    return players.map(function (n, i) { return {value: i, label: n}; });
  }

  function numberRange(field) {
    var min = field.min === undefined ? 0 : field.min, max = field.max;
    if (max === undefined || max - min > 12 || (field.step && field.step !== 1)) return null;
    var out = [];
    for (var n = min; n <= max; n++) out.push({value: n, label: String(n)});
    return out;
  }

  function cardPicker(field, scope, multiple) {
    var current = scope[field.name];
    var chosen = multiple ? (Array.isArray(current) ? current.slice() : []) : (current ? [current] : []);
    var shown = el("div", {class: "cards-picked", "aria-live": "polite"});
    function showChosen() {
      shown.textContent = "";
      if (!chosen.length) { shown.appendChild(el("span", {class: "muted", text: T.none})); return; }
      chosen.forEach(function (code, i) { if (i) shown.appendChild(document.createTextNode(" ")); shown.appendChild(cardSpan(code)); });
      if (multiple) shown.appendChild(el("span", {class: "muted small", text: " · " + fmt(T.picked, {n: chosen.length})}));
    }
    showChosen();
    var cards = field.choices ? field.choices.map(function (c) { return byCode[c.value] || {code: c.value, name: c.label, label: c.value, suit: ""}; }) : pack;
    var grid = packGrid(cards, function (code, button) {
      var at = chosen.indexOf(code);
      if (at !== -1) chosen.splice(at, 1);
      else if (multiple) chosen.push(code);
      else chosen = [code];
      grid.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-pressed", chosen.indexOf(b.dataset.code) !== -1 ? "true" : "false"); b.classList.toggle("in-hand", chosen.indexOf(b.dataset.code) !== -1); });
      if (multiple) scope[field.name] = chosen.slice();
      else if (chosen.length) scope[field.name] = chosen[0];
      else delete scope[field.name];
      showChosen();
      lastOffered = null;
      keep();
      if (!multiple && chosen.length && details) details.open = false;
      refreshSoon();
    }, function (code) { return chosen.indexOf(code) !== -1; });
    if (field.choices && field.choices.length <= 8) return el("div", {class: "stack"}, [shown, grid]);
    var details = el("details", {open: !chosen.length && field.required}, [el("summary", {text: T.choose}), grid]);
    return el("div", {class: "stack"}, [shown, details]);
  }

  function control(field, scope) {
    var kind = field.kind;
    var wrap = el("div", {class: "item", "data-field": field.name});
    var labelId = nextId("l");
    wrap.appendChild(el("div", {class: "label", id: labelId, text: field.label}));
    var body;
    if (kind === "choice") {
      var opts = field.choices.slice();
      if (field.nullable) opts.push({value: null, label: field.nullable});
      var longest = Math.max.apply(null, opts.map(function (o) { return String(o.label).length; }));
      body = choiceGroup(field, scope, opts, longest > 9 ? "wide" : "");
    } else if (kind === "seat") {
      var seats = seatOptions();
      if (field.nullable) seats.push({value: null, label: field.nullable});
      body = choiceGroup(field, scope, seats, "seats");
    } else if (kind === "seats") {
      var picked = Array.isArray(scope[field.name]) ? scope[field.name] : [];
      body = el("div", {class: "choices seats", role: "group", "aria-labelledby": labelId});
      players.forEach(function (n, i) {
        var input = el("input", {type: "checkbox", checked: picked.indexOf(i) !== -1});
        input.addEventListener("change", function () {
          var list = Array.isArray(scope[field.name]) ? scope[field.name] : [];
          list = list.filter(function (s) { return s !== i; });
          if (input.checked) list.push(i);
          list.sort();
          scope[field.name] = list;
          changed();
        });
        body.appendChild(el("label", {class: "choice"}, [input, el("span", {text: n})]));
      });
    } else if (kind === "card") {
      body = cardPicker(field, scope, false);
    } else if (kind === "cards") {
      body = cardPicker(field, scope, true);
    } else if (kind === "boolean") {
      var box = el("input", {type: "checkbox", checked: scope[field.name] === true || (scope[field.name] === undefined && field.default === true)});
      box.addEventListener("change", function () { scope[field.name] = box.checked; changed(); });
      wrap.removeChild(wrap.firstChild);
      body = el("label", {class: "check"}, [box, " " + field.label]);
    } else if (kind === "integer" || kind === "number") {
      var range = numberRange(field);
      if (range) {
        body = choiceGroup(field, scope, range, "");
      } else {
        var id = nextId("n");
        wrap.firstChild.replaceWith(el("label", {class: "label", for: id, text: field.label}));
        var input = el("input", {type: "text", id: id, inputmode: kind === "integer" ? "numeric" : "decimal",
          autocomplete: "off", value: scope[field.name] === undefined || scope[field.name] === null ? "" : String(scope[field.name])});
        input.addEventListener("input", function () {
          var text = input.value.trim().replace(",", ".");
          if (text === "") delete scope[field.name];
          else scope[field.name] = isNaN(Number(text)) ? text : Number(text);
          keep();
        });
        input.addEventListener("change", function () { changed(); });  // not changed(event): no rebuild under the next tap
        body = input;
      }
    } else if (kind === "counts") {
      body = countsControl(field, scope);
    } else if (kind === "object") {
      var inner = scope[field.name];
      body = el("div", {class: "decl list-entry"});
      if (field.nullable) {
        var off = el("input", {type: "checkbox", checked: inner === null});
        off.addEventListener("change", function () {
          if (off.checked) scope[field.name] = null; else delete scope[field.name];
          changed(true);
        });
        body.appendChild(el("label", {class: "check"}, [off, " " + field.nullable]));
      }
      if (inner !== null) {
        if (!inner || typeof inner !== "object") { inner = {}; scope[field.name] = inner; }
        var subs = field.required ? body : el("details", {class: "declare", open: declared(field, inner) || openObjects[field.name]});
        if (!field.required) {
          subs.addEventListener("toggle", function () { openObjects[field.name] = subs.open; });
          subs.appendChild(el("summary", {text: fmt(T.declare, {what: field.label})}));
          body.appendChild(subs);
        }
        field.fields.forEach(function (sub) { if (visible(sub, inner)) subs.appendChild(control(sub, inner)); });
      }
    } else if (kind === "list") {
      var items = Array.isArray(scope[field.name]) ? scope[field.name] : [];
      body = el("div", {class: "decl"});
      items.forEach(function (item, index) {
        var entry = el("div", {class: "list-entry"});
        field.fields.forEach(function (sub) { if (visible(sub, item)) entry.appendChild(control(sub, item)); });
        entry.appendChild(el("button", {type: "button", class: "btn btn-danger", text: T.remove, onclick: function () {
          items.splice(index, 1); scope[field.name] = items; changed(true);
        }}));
        body.appendChild(entry);
      });
      var canAdd = field.max === undefined || items.length < field.max;
      if (canAdd) body.appendChild(el("button", {type: "button", class: "btn", text: fmt(T.add, {what: field.label}), onclick: function () {
        items.push({}); scope[field.name] = items; changed(true);
      }}));
    }
    if (body) wrap.appendChild(body);
    if (field.help) wrap.appendChild(el("div", {class: "help", text: field.help}));
    return wrap;
  }

  /* one whole number per seat (the tricks won): a row of number buttons per player; when all but one are
     given and the field has a total, the last is the rest */
  function countsControl(field, scope) {
    var min = field.min === undefined ? 0 : field.min, max = field.max;
    var box = el("div", {class: "decl counts"});
    var values = Array.isArray(scope[field.name]) ? scope[field.name].slice() : players.map(function () { return null; });
    var guessed = {};
    players.forEach(function (name, seat) {
      var group = el("div", {class: "choices count-row", role: "radiogroup", "aria-label": name});
      var radio = nextId("c");
      for (var n = min; n <= max; n++) {
        (function (n) {
          var input = el("input", {type: "radio", name: radio, value: String(n), checked: values[seat] === n,
            "aria-label": name + " : " + n});
          input.addEventListener("click", function () {
            values[seat] = n;
            delete guessed[seat];
            var open = [];
            var sum = 0;
            values.forEach(function (v, i) { if (v === null || guessed[i]) open.push(i); else sum += v; });
            if (field.total !== undefined && open.length === 1 && field.total - sum >= min && field.total - sum <= max) {
              values[open[0]] = field.total - sum; guessed[open[0]] = true;
            }
            scope[field.name] = values.slice();
            changed(true);
          });
          group.appendChild(el("label", {class: "choice"}, [input, el("span", {text: String(n)})]));
        })(n);
      }
      box.appendChild(el("div", {class: "item"}, [el("div", {class: "label", text: name}), group]));
    });
    if (field.total !== undefined) {
      var sum = values.reduce(function (a, v) { return a + (v || 0); }, 0);
      box.appendChild(el("div", {class: "help", text: fmt(T.countsTotal, {n: sum, total: field.total})}));
    }
    return box;
  }

  // -- the record from what was entered ------------------------------------------------------------

  /* an object field is declared once one of its sub-fields other than a checkbox holds a value */
  function declared(field, value) {
    if (!value || typeof value !== "object") return false;
    return field.fields.some(function (f) {
      var v = value[f.name];
      return f.kind !== "boolean" && v !== undefined && v !== "" && v !== null && !(Array.isArray(v) && !v.length);
    });
  }

  function emit(target, field, scope) {
    if (!visible(field, scope)) return;
    var value = scope[field.name];
    if (field.kind === "object") {
      if (value === null) { setPath(target, field.name, null); return; }
      if (!declared(field, value)) return;  // an optional object left alone (a checkbox alone does not declare it)
      var sub = {};
      field.fields.forEach(function (f) { emit(sub, f, value); });
      if (Object.keys(sub).length) setPath(target, field.name, sub);
      return;
    }
    if (field.kind === "list") {
      if (!Array.isArray(value) || !value.length) return;
      setPath(target, field.name, value.map(function (item) {
        var o = {};
        field.fields.forEach(function (f) { emit(o, f, item); });
        return o;
      }));
      return;
    }
    if (field.kind === "counts" && (!Array.isArray(value) || value.some(function (v) { return v === null; }))) return;
    if (value === undefined || value === "") {
      if (field.default !== undefined) setPath(target, field.name, field.default);
      else if (field.kind === "boolean" && field.required) setPath(target, field.name, false);
      return;
    }
    setPath(target, field.name, value);
  }

  function chunk(cards) {
    var out = [];
    for (var i = 0; i < cards.length; i += trickSize) out.push(cards.slice(i, i + trickSize));
    return out;
  }

  function record() {
    var out = {};
    // a summary also sends what a correction found already declared card by card (the retourne, the exchange)
    var sent = playing ? phases : form.phases.filter(function (p) { return p.kind !== "play"; });
    sent.forEach(function (phase) { phase.fields.forEach(function (f) { emit(out, f, deal.values); }); });
    if (out.dealer === undefined) out.dealer = config.dealer;
    if (playing) {
      out.tricks = chunk(deal.cards);
      if (deal.hands && deal.hands.some(function (h) { return h.length; })) out.hands = deal.hands;
    }
    return out;
  }

  // -- the server's view of the play ---------------------------------------------------------------

  var engine = config.engine && window.LeveeEngine ? config.engine : null;  // the rules on this device, if served
  var lang = document.documentElement.lang || "fr";
  var STATE_TIMEOUT = 6000;
  var state = null;      // the last answer of the state endpoint (or of the engine on this device)
  var stateFor = -1;     // the version of the deal it answered for
  var asked = 0;
  var offline = false;
  var timer = null;

  /* a declaration changed (an écart, a retourne, the hands): until the server answers, the pack it drew for the
     old declarations may hold a card now set aside, and the answer would move the cards under the next tap; the
     pack waits, greyed, for that answer (a few hundred ms online; offline, it is at once the device's) */
  var declaredAt = -1;
  function refreshSoon() {
    if (!playing) return;
    declaredAt = version;
    clearTimeout(timer);
    timer = setTimeout(refresh, 120);
    render();
  }
  /* with the hands entered, the pack is the hand of the seat to play: after a card, until the answer says whose
     turn it is, the pack (the last hand, less that card) waits too, rather than change under the next tap */
  function settling() {
    if (offline) return false;
    return declaredAt > stateFor || (stateFor !== version && !!(state && state.hand));
  }

  function refresh() {
    if (!playing) return;
    var ask = ++asked;
    var count = version;
    var fields = record();
    delete fields.tricks;
    fields.cards = deal.cards.slice();
    post(config.stateUrl, {fields: fields}, null, STATE_TIMEOUT).then(function (answer) {
      if (ask !== asked) return;
      offline = false;
      if (answer.status >= 400) { state = null; declaredAt = -1; render(); return; }
      answered(answer.body, count);
      warmSoon();
    }, function () {
      if (ask !== asked) return;
      offline = true;
      render();
      if (!engine) return;
      // no network: the same check by the same Python, run on this device (rules-engine.js)
      var cards = fields.cards;
      delete fields.cards;
      window.LeveeEngine.ask(engine, fields, cards, lang).then(function (body) {
        if (ask !== asked) return;
        body.engine = "device";
        answered(body, count);
      }, function () { /* the engine could not start: any card not yet played can still be tapped */ });
    });
  }

  /* an answer (the server's or the device's) for the deal as it was at version `count` */
  function answered(body, count) {
    state = body;
    stateFor = count;
    if (state.trick_size) trickSize = state.trick_size;
    if (state.tricks_per_deal) tricksPerDeal = state.tricks_per_deal;
    if (state.ready) {
      deal.winners = (deal.winners || []).slice(0, state.over ? tricksPerDeal : state.trick);
      if (state.trick_complete && state.last_trick) deal.winners[(state.over ? tricksPerDeal : state.trick) - 1] = state.last_trick.winner;
      store();
    }
    render();
  }

  /* once the page is usable, the engine's files are fetched for the table's service worker to keep */
  var warming = false;
  function warmSoon() {
    if (warming || !engine) return;
    warming = true;
    setTimeout(function () { window.LeveeEngine.warmUp(engine); }, 1000);
  }

  function post(url, body, headers, timeout) {
    var h = {"Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json"};
    Object.keys(headers || {}).forEach(function (k) { h[k] = headers[k]; });
    var options = {method: "POST", headers: h, body: JSON.stringify(body), credentials: "same-origin"};
    if (timeout && window.AbortController) {  // a network that hangs counts as none
      var abort = new AbortController();
      setTimeout(function () { abort.abort(); }, timeout);
      options.signal = abort.signal;
    }
    return fetch(url, options)
      .then(function (r) {
        return r.json().then(function (b) { return {status: r.status, body: b}; },
          function () { return {status: r.status, body: {}}; });
      });
  }

  function postForm(url, pairs, headers) {
    var h = {"X-CSRFToken": csrf, "Accept": "application/json"};
    Object.keys(headers || {}).forEach(function (k) { h[k] = headers[k]; });
    return fetch(url, {method: "POST", headers: h, body: new URLSearchParams(pairs), credentials: "same-origin"})
      .then(function (r) {
        return r.json().then(function (b) { return {status: r.status, body: b}; },
          function () { return {status: r.status, body: {}}; });
      });
  }

  window.addEventListener("online", function () { refresh(); });
  // the network gone (or the page opened without it): the engine on this device starts now, before a card needs it
  function startEngine() { if (engine) window.LeveeEngine.start(engine).catch(function () { /* the server only */ }); }
  window.addEventListener("offline", startEngine);
  if (navigator.onLine === false) startEngine();
  setInterval(function () { if (offline) refresh(); }, 5000);

  // -- the page ------------------------------------------------------------------------------------

  var problemsBox = el("div", {id: "problems-live", "aria-live": "assertive"});
  var declBox = el("div", {class: "decl"});
  var playBox = el("section", {id: "play", "aria-labelledby": "play-title"});
  var saveBox = el("div", {class: "stack"});

  function changed(rebuild) {
    lastOffered = null;
    keep();
    if (rebuild) renderDeclarations();
    else renderDeclarationsIfDependent();
    refreshSoon();
  }

  var lastVisibility = "";
  /* which fields are shown, sub-fields of objects and list items included (their `when` looks at their item) */
  function visibilityKey() {
    var keys = [];
    function walk(fields, scope) {
      fields.forEach(function (f) {
        var on = visible(f, scope);
        keys.push(on ? 1 : 0);
        var v = scope[f.name];
        if (!on || !f.fields) return;
        if (f.kind === "object" && v && typeof v === "object") { keys.push("{"); walk(f.fields, v); keys.push("}"); }
        else if (f.kind === "list" && Array.isArray(v)) v.forEach(function (item) { keys.push("["); walk(f.fields, item || {}); keys.push("]"); });
      });
    }
    phases.forEach(function (p) { walk(p.fields, deal.values); });
    return keys.join("");
  }
  function renderDeclarationsIfDependent() {
    if (visibilityKey() !== lastVisibility) renderDeclarations();
  }

  var FOCUSABLE = "input, button, textarea, select, summary";
  function renderDeclarations() {
    var active = document.activeElement;
    var at = active && declBox.contains(active) ? Array.prototype.indexOf.call(declBox.querySelectorAll(FOCUSABLE), active) : -1;
    var caret = at !== -1 && active.type === "text" ? active.selectionStart : null;
    buildDeclarations();
    if (at !== -1) {
      var again = declBox.querySelectorAll(FOCUSABLE)[at];
      if (again) {
        again.focus({preventScroll: true});
        if (caret !== null && again.type === "text") try { again.setSelectionRange(caret, caret); } catch (e) { /* not a text box */ }
      }
    }
  }
  function buildDeclarations() {
    declBox.textContent = "";
    lastVisibility = visibilityKey();
    phases.forEach(function (phase) {
      if (phase.kind === "play" || !phase.fields.length) return;
      var box = el("fieldset", {class: "decl", "data-phase": phase.name}, [el("legend", {text: phase.label})]);
      if (phase.help) box.appendChild(el("p", {class: "help small muted", text: phase.help}));
      phase.fields.forEach(function (f) { if (visible(f, deal.values)) box.appendChild(control(f, deal.values)); });
      declBox.appendChild(box);
    });
  }

  function packGrid(cards, onTap, isPressed) {
    var grid = el("div", {class: "pack"});
    var rows = {};
    cards.forEach(function (c) {
      var row = rows[c.suit];
      if (!row) { row = rows[c.suit] = el("div", {class: "suit", role: "group"}); grid.appendChild(row); }
      var pressed = isPressed ? isPressed(c.code) : false;
      var b = el("button", {type: "button", class: "card-btn " + (SUIT_CLASS[c.suit] || "") + (pressed ? " in-hand" : ""),
        "aria-label": cardName(c), "data-code": c.code, "aria-pressed": isPressed ? String(pressed) : null, text: c.label});
      b.addEventListener("click", function () { onTap(c.code, b); });
      row.appendChild(b);
    });
    grid.addEventListener("keydown", function (event) {
      if (!typed(grid, event)) { typedKeys = ""; arrows(grid, event); }
    });
    return grid;
  }

  /* typing a card picks it (issue 19: one trick by the keyboard alone in at most 2 keys per card): its rank then
     its suit (« RC » roi de cœur, « 0P » the 10 of spades; on the English page « KH », « 0S »), a trump by its
     number (« 21 »; « 7 » then Enter), the Excuse « E ». A code that no other card's code extends is played at
     once; otherwise the first card it names takes the focus, and Enter plays it. */
  var english = (document.documentElement.lang || "").indexOf("en") === 0;
  var TYPED_RANK = english ? {K: "K", Q: "Q", N: "N", J: "J", A: "A", "10": "0"} :
    {K: "R", Q: "D", N: "C", J: "V", A: "A", "10": "0"};
  var TYPED_SUIT = english ? {S: "S", H: "H", D: "D", C: "C"} : {S: "P", H: "C", D: "K", C: "T"};
  function typedCode(code) {
    if (code === "EX") return "E";
    if (/^T\d+$/.test(code)) return code.slice(1);
    var rank = code.slice(0, -1), suit = code.slice(-1);
    return (TYPED_RANK[rank] || rank) + (TYPED_SUIT[suit] || suit);
  }
  var typedKeys = "", typedAt = 0;
  function typed(grid, event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1 || event.key === " ") return false;
    var here = event.target.closest ? event.target.closest("button") : null;
    if (!here || !grid.contains(here)) return false;
    var buttons = Array.prototype.slice.call(grid.querySelectorAll("button[data-code]"));
    function naming(keys) { return buttons.filter(function (b) { return typedCode(b.dataset.code).indexOf(keys) === 0; }); }
    var key = event.key.toUpperCase(), now = Date.now();
    var keys = (now - typedAt < 1500 ? typedKeys : "") + key;
    var found = naming(keys);
    if (!found.length && keys !== key) { keys = key; found = naming(keys); }
    typedAt = now;
    if (!found.length) return false;
    event.preventDefault();
    var exact = found.filter(function (b) { return typedCode(b.dataset.code) === keys; })[0];
    if (exact && found.length === 1) { typedKeys = ""; exact.focus(); exact.click(); return true; }
    typedKeys = keys;
    (exact || found[0]).focus();
    return true;
  }

  /* a card button's accessible name holds its visible label (« R♠ ») then its name (« roi de pique ») */
  function cardName(c) {
    if (String(c.name).toLowerCase().indexOf(String(c.label).toLowerCase()) !== -1) return c.name;
    return c.label + " · " + c.name;
  }

  /* arrow keys move within a pack: left and right along a suit, up and down to the next suit; Home, End */
  function arrows(grid, event) {
    var key = event.key;
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].indexOf(key) === -1) return;
    var here = event.target.closest ? event.target.closest("button") : null;
    if (!here || !grid.contains(here)) return;
    var all = Array.prototype.slice.call(grid.querySelectorAll("button"));
    var at = all.indexOf(here), to = at;
    if (key === "ArrowRight") to = Math.min(at + 1, all.length - 1);
    else if (key === "ArrowLeft") to = Math.max(at - 1, 0);
    else if (key === "Home") to = 0;
    else if (key === "End") to = all.length - 1;
    else {
      var rows = Array.prototype.slice.call(grid.children);
      var row = rows.indexOf(here.parentNode), col = Array.prototype.indexOf.call(here.parentNode.children, here);
      var next = rows[row + (key === "ArrowDown" ? 1 : -1)];
      if (next) to = all.indexOf(next.children[Math.min(col, next.children.length - 1)]);
    }
    event.preventDefault();
    if (all[to]) all[to].focus();
  }

  function seatToPlay() {
    if (state && stateFor === version && !state.over && state.ready) return state.seat;
    return null;
  }

  function tapCard(code) {
    var seat = seatToPlay();
    var bad = state && stateFor === version && state.forbidden ?
      state.forbidden.filter(function (f) { return f.card === code; })[0] : null;
    if (bad) { askConfirm(code, bad.reason); return; }
    play(code);
    void seat;
  }

  var lastOffered = null; // the cards the last answer offered (without the hands, any seat may hold them)
  var lastOfferedHand = false;  // ... and whether they were one seat's hand
  var pending = null;   // a forbidden card waiting for the arbiter's confirmation
  function askConfirm(code, reason) {
    var pack = document.getElementById("pack");
    var active = document.activeElement;
    if (pack && active && pack.contains(active)) keepPackFocus = {at: Array.prototype.indexOf.call(pack.querySelectorAll("button"), active)};
    pending = {code: code, reason: reason};
    render();
    var yes = document.getElementById("confirm-yes");
    if (yes) { yes.focus({preventScroll: true}); yes.scrollIntoView({block: "center"}); }
  }
  function play(code) {
    pending = null;
    deal.cards.push(code);
    keep();
    render();
    refresh();
  }
  function undo() {
    pending = null;
    lastOffered = null;
    deal.cards.pop();
    keep();
    render();
    refresh();
    announce(T.undone);
  }
  var liveNote = el("p", {class: "sr-only", "aria-live": "polite", style: "position:absolute;left:-999px"});
  function announce(text) { liveNote.textContent = text; }

  function nameOf(seat) { return seat === null || seat === undefined ? "…" : players[seat]; }

  /* the pack is rebuilt after every card: the focus stays on it, on the card now at the same place */
  function renderPlay() {
    var active = document.activeElement;
    var oldPack = document.getElementById("pack");
    var packAt = oldPack && active && oldPack.contains(active) ?
      Array.prototype.indexOf.call(oldPack.querySelectorAll("button"), active) : -1;
    if (packAt === -1 && keepPackFocus && (!active || active === document.body || playBox.contains(active))) packAt = keepPackFocus.at;
    keepPackFocus = null;
    buildPlay();
    var pack = document.getElementById("pack");
    if (packAt !== -1 && pack && !pending) {
      var buttons = pack.querySelectorAll("button");
      var target = buttons[Math.min(packAt, buttons.length - 1)];
      if (target) target.focus();
    }
    var status = playBox.querySelector(".play-status");
    if (status) document.documentElement.style.scrollPaddingTop = (status.offsetHeight + 8) + "px";
  }
  var keepPackFocus = null;  // the pack's place to focus again once the card's confirmation is answered

  function buildPlay() {
    if (!playing) { playBox.textContent = ""; return; }
    var box = document.createDocumentFragment();
    var grid = null;
    var done = deal.cards.length;
    var tricksDone = Math.floor(done / trickSize);
    var inTrick = done % trickSize;
    var known = state && stateFor === version && state.ready;
    var over = known ? state.over : tricksDone >= tricksPerDeal;
    var forbiddenReason = "";
    var status = el("div", {class: "play-status"});
    var line = el("div", {class: "line"});
    line.appendChild(el("h2", {id: "play-title", style: "margin:0", text: over ? T.over :
      fmt(T.trickOf, {n: Math.min(tricksDone + 1, tricksPerDeal), total: tricksPerDeal})}));
    var answerNow = state && stateFor === version;
    var byDevice = answerNow && state.engine === "device";
    var net = el("span", {class: "net" + (offline ? " offline" : ""), id: "net", "data-engine": answerNow ? state.engine : null,
      text: byDevice ? T.byDevice : offline ? T.offline : (answerNow ? T.byServer : T.checking)});
    line.appendChild(net);
    status.appendChild(line);
    if (!over) {
      var seat = seatToPlay();
      status.appendChild(el("div", {class: "to-play", id: "to-play", "aria-live": "polite"}, [T.toPlay + " ", el("strong", {text: nameOf(seat)})]));
    }
    // the trick on the table: the cards of the trick in progress, or the trick just completed and its winner
    var list = el("ol", {class: "current-trick", id: "trick"});
    var cardsShown = [], seatsShown = [], winner = null, index = tricksDone;
    if (known && state.current && state.current.length) {
      cardsShown = state.current; seatsShown = state.current_seats || []; index = state.trick;
    } else if (known && state.trick_complete && state.last_trick) {
      cardsShown = state.last_trick.cards; seatsShown = state.last_trick.seats; winner = state.last_trick.winner;
      index = (state.over ? tricksPerDeal : state.trick) - 1;
    } else if (inTrick || tricksDone) {
      var start = inTrick ? done - inTrick : done - trickSize;
      cardsShown = deal.cards.slice(start, start + trickSize);
      index = Math.floor(start / trickSize);
    }
    list.setAttribute("aria-label", fmt(T.trickN, {n: index + 1}));
    // a slot for every card of the trick, and a line for its winner, always there: the buttons below never move
    list.style.gridTemplateColumns = "repeat(" + trickSize + ", minmax(0, 1fr))";
    for (var slot = 0; slot < trickSize; slot++) {
      var code = cardsShown[slot];
      if (code === undefined) { list.appendChild(el("li", {class: "empty", "aria-hidden": "true"})); continue; }
      var s = seatsShown[slot];
      var badHere = known && state.problems.some(function (p) { return p.trick === index && p.card === code; });
      list.appendChild(el("li", {class: (winner !== null && s === winner ? "win" : "") + (badHere ? " bad" : ""),
        title: s === undefined ? null : players[s]},
        [el("span", {class: "who", text: s === undefined ? "" : players[s]}), cardSpan(code)]));
    }
    status.appendChild(list);
    status.appendChild(el("div", {class: "trick-done", id: winner !== null && winner !== undefined ? "trick-winner" : null,
      role: "status", text: winner !== null && winner !== undefined ?
        fmt(T.wonBy, {n: index + 1, who: players[winner]}) : ""}));
    box.appendChild(status);

    if (state && !state.ready && !offline) {
      box.appendChild(el("p", {class: "forbid-note", id: "not-ready", text: fmt(T.notReady, {what: notReadyText()})}));
    }
    if (pending) {
      var c = byCode[pending.code];
      box.appendChild(el("div", {class: "confirm", id: "confirm", role: "alertdialog", "aria-labelledby": "confirm-title"}, [
        el("strong", {id: "confirm-title", text: fmt(T.forbiddenTitle, {card: c ? c.name : pending.code})}),
        el("span", {text: pending.reason}),
        el("div", {class: "actions"}, [
          el("button", {type: "button", class: "btn btn-danger", id: "confirm-yes", text: T.enterAnyway, onclick: function () { deal.irregular = true; play(pending.code); }}),
          el("button", {type: "button", class: "btn", text: T.cancel, onclick: function () { pending = null; render(); }}),
        ]),
      ]));
    }
    if (!over) {
      var played = {};
      deal.cards.forEach(function (code) { played[code] = true; });
      var hand = known && state.hand ? state.hand : null;
      var forbidden = {};
      // each marked card keeps its own reason (shown when tapped); the note under the pack is the engine's sentence
      // true of all of them (a card's own reason names that card: « … contenait l'atout 21 » is not the 7 de pique's)
      if (known && state.forbidden) state.forbidden.forEach(function (f) { forbidden[f.card] = f.reason; });
      if (known && state.forbidden && state.forbidden.length) forbiddenReason = state.forbidden_note || "";
      // the server's answer: the cards the seat may play and the forbidden ones (its hand, or, without the hands,
      // every card not played nor put aside by the declarations); offline, every card not yet played
      var offered = null;
      if (known && state.playable) {
        offered = {};
        state.playable.forEach(function (code) { offered[code] = true; });
        (state.forbidden || []).forEach(function (f) { offered[f.card] = true; });
        lastOffered = offered;
        lastOfferedHand = !!state.hand;
      } else if (lastOffered && (!lastOfferedHand || settling())) {
        // until the answer: the same cards less those just played (a hand: greyed, it may be another seat's next)
        offered = lastOffered;
      }
      var cards = pack.filter(function (c) {
        return !played[c.code] && (offered ? offered[c.code] : (!hand || hand.indexOf(c.code) !== -1));
      });
      grid = packGrid(cards, tapCard);
      grid.id = "pack";
      if (settling()) {
        grid.setAttribute("aria-busy", "true");
        grid.classList.add("settling");
        grid.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      }
      grid.querySelectorAll("button").forEach(function (b) {
        if (forbidden[b.dataset.code]) { b.classList.add("forbidden"); b.setAttribute("aria-description", forbidden[b.dataset.code]); }
      });
      box.appendChild(grid);
      var tarotPack = pack.some(function (c) { return c.code === "EX"; });
      box.appendChild(el("p", {class: "help small muted", id: "pack-keys",
        text: T.packKeys + (tarotPack ? " " + T.packKeysTarot : "")}));
    }
    var tools = el("div", {class: "play-tools"});
    tools.appendChild(el("button", {type: "button", class: "btn", id: "undo", text: T.undo, disabled: !deal.cards.length, onclick: undo}));
    box.appendChild(tools);
    // what may change from one card to the next comes below the buttons
    if (!over && forbiddenReason) box.appendChild(el("p", {class: "forbid-note", id: "forbid-note",
      text: fmt(T.forbiddenNote, {reason: forbiddenReason})}));
    if (known && state.problems.length) {
      var ul = el("ul", {});
      state.problems.forEach(function (p) { ul.appendChild(el("li", {text: p.message})); });
      box.appendChild(el("div", {class: "violations", id: "play-problems"}, [el("h2", {text: T.playProblems}), ul]));
    }
    if (known && over && state.score && !correcting) box.appendChild(renderScore(state.score));
    var all = chunk(deal.cards);
    if (all.length > 1 || (all.length === 1 && all[0].length === trickSize)) {
      var past = el("ol", {class: "past-tricks"});
      all.forEach(function (t, i) {
        var li = el("li", {}, [el("strong", {text: fmt(T.trickN, {n: i + 1})})]);
        t.forEach(function (code) { li.appendChild(cardSpan(code)); });
        var w = (deal.winners || [])[i];
        if (w !== null && w !== undefined && t.length === trickSize) li.appendChild(el("span", {class: "winner", text: fmt(T.won, {who: players[w]})}));
        past.appendChild(li);
      });
      box.appendChild(el("details", {id: "past"}, [el("summary", {text: T.pastTricks}), past]));
    }
    box.appendChild(renderHands());
    mount(box, grid);
  }

  /* the page drawn again goes in, keeping on screen every part that has not changed (« Annuler », the card
     waiting for confirmation, the hands), and the pack itself when it holds the same cards in the same places and
     only their marks changed: a tap whose finger is down while the server's answer arrives (its press on one
     button, its release on a new one) would otherwise be lost */
  function mount(box, grid) {
    var olds = {};
    Array.prototype.forEach.call(playBox.children, function (n) { olds[keyOf(n)] = n; });
    var parts = Array.prototype.slice.call(box.childNodes).map(function (n) {
      var key = keyOf(n), old = olds[key];
      if (!old) return n;
      delete olds[key];  // one part on screen stands for one part drawn
      if (n === grid && samePack(old, grid)) { patchPack(old, grid); return old; }
      return old.isEqualNode(n) ? old : n;
    });
    Array.prototype.slice.call(playBox.childNodes).forEach(function (n) {
      if (parts.indexOf(n) === -1) playBox.removeChild(n);
    });
    parts.forEach(function (n, i) {
      var here = playBox.childNodes[i];
      if (here !== n) playBox.insertBefore(n, here || null);
    });
  }

  function keyOf(node) { return node.id ? "#" + node.id : node.tagName + "." + node.className; }

  /* the marks of the pack drawn again, put on the buttons on screen */
  function patchPack(old, grid) {
    var fresh = grid.querySelectorAll("button");
    old.querySelectorAll("button").forEach(function (b, i) {
      var n = fresh[i];
      b.className = n.className;
      b.disabled = n.disabled;
      ["aria-description", "aria-pressed"].forEach(function (name) {
        if (n.hasAttribute(name)) b.setAttribute(name, n.getAttribute(name)); else b.removeAttribute(name);
      });
    });
    old.className = grid.className;
    if (grid.hasAttribute("aria-busy")) old.setAttribute("aria-busy", "true"); else old.removeAttribute("aria-busy");
  }

  /* the same cards, in the same rows, in the same order */
  function samePack(a, b) {
    var x = a.querySelectorAll("button"), y = b.querySelectorAll("button");
    if (x.length !== y.length || a.children.length !== b.children.length) return false;
    for (var i = 0; i < x.length; i++) {
      if (x[i].dataset.code !== y[i].dataset.code ||
          x[i].parentNode.children.length !== y[i].parentNode.children.length) return false;
    }
    return true;
  }

  /* the deal's marks once every trick is in, as the save will judge them (the server stays the judge) */
  function renderScore(score) {
    var box = el("div", {class: "panel deal-score", id: "deal-score", role: "status"});
    box.appendChild(el("h2", {text: T.dealScore}));
    if (score.headline) box.appendChild(el("p", {class: "small", text: score.headline}));
    if (score.scores) {
      var list = el("ul", {class: "score-list"});
      score.scores.forEach(function (points, seat) {
        list.appendChild(el("li", {"data-seat": String(seat)}, [el("span", {text: players[seat] + " "}),
          el("strong", {class: "points", text: points > 0 ? "+" + points : String(points)})]));
      });
      box.appendChild(list);
    }
    (score.problems || []).forEach(function (message) { box.appendChild(el("p", {class: "forbid-note", text: message})); });
    return box;
  }

  function missing() {
    var out = [];
    function walk(fields, scope) {
      fields.forEach(function (f) {
        if (!visible(f, scope)) return;
        var v = scope[f.name];
        if (f.required && (v === undefined || v === "" || (Array.isArray(v) && !v.length))) out.push(f.label);
        else if (f.kind === "object" && declared(f, v)) walk(f.fields, v);
        else if (f.kind === "list" && Array.isArray(v)) v.forEach(function (item) { walk(f.fields, item); });
      });
    }
    phases.forEach(function (p) { if (p.kind !== "summary") walk(p.fields, deal.values); });
    return out;
  }

  function notReadyText() {
    var absent = missing();
    if (absent.length) return absent.join(", ");
    var path = state.field || "";
    var label = "";
    form.phases.forEach(function (p) { p.fields.forEach(function (f) { if (path === f.name || path.indexOf(f.name + ".") === 0 || path.indexOf(f.name + "[") === 0) label = f.label; }); });
    return label ? label + " — " + state.message : state.message;
  }

  var handsOpen = false;
  function renderHands() {
    var size = form.hand_size;
    var hands = deal.hands || players.map(function () { return []; });
    var details = el("details", {id: "hands", open: handsOpen});
    details.addEventListener("toggle", function () { handsOpen = details.open; });
    details.appendChild(el("summary", {text: T.hands}));
    var body = el("div", {class: "stack"});
    body.appendChild(el("p", {class: "help small muted", text: T.handsHelp}));
    var tabs = el("div", {class: "seat-tabs"});
    players.forEach(function (n, i) {
      tabs.appendChild(el("button", {type: "button", "aria-pressed": String(deal.handSeat === i), onclick: function () {
        deal.handSeat = i; keep(); render();
      }}, [n, el("br"), el("span", {class: "count", text: fmt(T.handCount, {n: hands[i].length, total: size})})]));
    });
    body.appendChild(tabs);
    var owner = {};
    hands.forEach(function (h, s) { h.forEach(function (code) { owner[code] = s; }); });
    var seat = deal.handSeat || 0;
    var grid = packGrid(pack.filter(function (c) { return owner[c.code] === undefined || owner[c.code] === seat; }), function (code) {
      var hs = deal.hands || players.map(function () { return []; });
      var at = hs[seat].indexOf(code);
      if (at !== -1) hs[seat].splice(at, 1); else hs[seat].push(code);
      deal.hands = hs;
      lastOffered = null;
      keep(); render(); refreshSoon();
    }, function (code) { return owner[code] === seat; });
    body.appendChild(grid);
    body.appendChild(el("button", {type: "button", class: "btn", text: T.clearHands, onclick: function () {
      deal.hands = null; keep(); render(); refreshSoon();
    }}));
    details.appendChild(body);
    return details;
  }

  function renderSave() {
    saveBox.textContent = "";
    if (correcting) {
      var reason = el("textarea", {id: "reason", name: "reason", rows: "2", required: true, "aria-describedby": "reason-help"});
      reason.value = deal.reason || "";
      reason.addEventListener("input", function () { deal.reason = reason.value; store(); });
      saveBox.appendChild(el("div", {class: "field"}, [el("label", {for: "reason", text: T.reason}), reason,
        el("div", {class: "help", id: "reason-help", text: T.reasonHelp})]));
    }
    saveBox.appendChild(el("button", {type: "button", class: "btn btn-primary btn-block", id: "save", text: T.save, onclick: save}));
    saveBox.appendChild(el("button", {type: "button", class: "btn btn-danger", id: "restart", text: T.restart, onclick: function () {
      if (!window.confirm(T.restartConfirm)) return;
      deal = fresh(); state = null; keep(); renderDeclarations(); render(); renderSave(); refresh();
    }}));
  }

  function showProblems(problems, title, note) {
    problemsBox.textContent = "";
    if (!problems || !problems.length) return;
    var ul = el("ul", {});
    problems.forEach(function (p) {
      ul.appendChild(el("li", {}, [p.message].concat(p.where ? [el("br"), el("span", {class: "where", text: p.where})] : [])));
    });
    var box = el("div", {class: "violations", role: "alert", id: "problems", tabindex: "-1"}, [el("h2", {text: title}), ul]);
    if (note) box.appendChild(el("p", {class: "small", text: note}));
    problemsBox.appendChild(box);
    box.focus();
    box.scrollIntoView({block: "start"});
  }

  /* a declaration the game asks to be reminded of (`remind`: every deal has a Point) left without value: said once,
     and the next tap on save keeps the deal as it is */
  var reminded = false;
  function handsComplete() {
    return !!deal.hands && deal.hands.length === players.length &&
      deal.hands.every(function (h) { return h.length === form.hand_size; });
  }
  function remindFirst() {
    if (reminded) return false;
    var out = [];
    phases.forEach(function (p) {
      if (p.kind === "summary") return;
      p.fields.forEach(function (f) {
        if (!f.remind || !visible(f, deal.values)) return;
        if (f.from_hands && handsComplete()) return;  // left empty, it is found from the hands (the field's help)
        var v = deal.values[f.name];
        if (f.kind === "object" ? v !== null && !declared(f, v) : v === undefined || v === "") out.push({message: f.remind});
      });
    });
    if (!out.length) return false;
    reminded = true;
    showProblems(out, T.remindTitle, T.remindNote);
    return true;
  }

  var saving = false;
  function save() {
    if (saving) return;
    if (remindFirst()) return;
    if (correcting && !(deal.reason || "").trim()) {
      showProblems([{message: T.reasonMissing}], T.reason);
      document.getElementById("reason").focus();
      return;
    }
    saving = true;
    var button = document.getElementById("save");
    button.disabled = true;
    button.textContent = T.saving;
    var body = {fields: record()};
    if (correcting) { body.reason = deal.reason; body.version = config.correction.version; }
    if (deal.irregular) body.irregular = true;  // « La saisir quand même »: saved as an irregular deal, arbiter called
    var asForm = [["csrfmiddlewaretoken", csrf], ["mode", "record"], ["record", JSON.stringify(body.fields)]];
    if (deal.irregular) asForm.push(["irregular", "1"]);
    // the table's last deal this page knew: a deal another phone saved meanwhile is said, not saved twice
    if (!correcting && typeof config.after === "number") {
      body.after = config.after;
      asForm.push(["after", String(config.after)]);
    }
    var sent = config.saveAsForm ? postForm(config.saveUrl, asForm, {"Idempotency-Key": deal.key})
      : post(config.saveUrl, body, {"Idempotency-Key": deal.key});
    sent.then(function (answer) {
      saving = false;
      if ((answer.status === 201 || answer.status === 200) && answer.body.url) {
        try { localStorage.removeItem(config.storageKey); } catch (e) { /* nothing kept */ }
        window.location.assign(answer.body.url);
        return;
      }
      button.disabled = false; button.textContent = T.save;
      if (answer.status === 422 || answer.status === 409) deal.key = newKey();  // a changed deal is a new request
      if (typeof answer.body.after === "number") {  // sent again, it is the next deal: its number, its dealer
        config.after = answer.body.after;
        var heading = document.querySelector("main h1");
        if (heading) heading.textContent = T.dealHeading.replace("%(n)s", String(config.after + 1));
        if (typeof answer.body.dealer === "number") { deal.values.dealer = answer.body.dealer; renderDeclarations(); }
      }
      keep();
      if (answer.status === 409) showProblems(answer.body.problems || [], T.notSavedNow, T.keptHere);
      else showProblems(answer.body.problems || [], T.notSaved, T.fixAndSend);
    }, function () {
      saving = false;
      button.disabled = false; button.textContent = T.save;
      if (!correcting && config.offlineUrl && window.LeveeOffline && window.LeveeOffline.enqueue) {
        // no network: the deal waits on this device with its key, sent once when the network returns
        var dealer = typeof deal.values.dealer === "number" ? deal.values.dealer : config.dealer, keptKey = deal.key;
        var kept = typeof config.after === "number" ? config.after + 1 : null;
        var title = kept === null ? "" : [T.dealHeading.replace("%(n)s", String(kept))].concat(dealWords(deal.values))
          .join(" · ");
        var copy = JSON.parse(JSON.stringify(deal));
        window.LeveeOffline.enqueue(config.offlineUrl, asForm, keptKey, {title: title, deal: copy, dealer: dealer})
          .then(function () {
          // a game of deals (Tarot): the next seat deals; a match's next dealer is the server's to say
          if (config.dealerAdvances && typeof dealer === "number") config.dealer = (dealer + 1) % players.length;
          try { localStorage.removeItem(config.storageKey); } catch (e) { /* nothing kept */ }
          deal = fresh(); state = null; keep();
          problemsBox.textContent = "";
          renderDeclarations(); render(); renderSave(); refresh();
          showKept(kept, keptKey, copy);
          window.scrollTo(0, 0);
        });
        return;
      }
      showProblems([{message: T.noNetwork}], T.notSaved);
    });
  }

  /* a deal kept on this device without network: said at the top (a walk entered the same deal again, the page
     showing the same « Donne 5 », empty, and the note far below), and the page is now the next deal's. The box
     follows each deal kept here until the outbox has sent it (« Donne 5 envoyée. ») or the server refused it
     (said plainly, with the reason: the deal stays on this device to be fixed) — a walk read « gardée » long
     after the deal had been sent */
  var keptHere = [];  // {key, n, state: "waiting" | "sent" | "refused", why, deal}, in the order kept
  // the table's last deal known apart from the deals waiting here: the page's, then the server's answers
  var tableLast = typeof config.after === "number" ? config.after : null;
  /* the deals waiting on this device follow the table's last deal, in the order kept: their numbers, the page's
     « after » and its heading (« Donne 4 » with deals 2 and 3 waiting) follow the outbox as deals leave it */
  function follow() {
    if (tableLast === null || correcting) return;
    var n = tableLast;
    keptHere.forEach(function (k) { if (k.state === "waiting") k.n = ++n; });
    config.after = n;
    var heading = document.querySelector("main h1") || document.querySelector("h1");
    if (heading) heading.textContent = T.dealHeading.replace("%(n)s", String(n + 1));
  }
  function showKept(kept, key, copy) {
    if (kept === null) return;
    keptHere.push({key: key, n: kept, state: "waiting", why: "", deal: copy});
    follow();
    renderKept().focus();
  }
  /* a deal's words, from the game's own description of the page (its first declarations: « Anne (preneur) »,
     « garde »), for the list of the deals on this device */
  function dealWords(values) {
    var out = [];
    var first = form.phases.filter(function (p) { return p.kind !== "play" && p.kind !== "summary"; })[0];
    (first ? first.fields : []).forEach(function (f) {
      if (f.name === "dealer" || !visible(f, values)) return;
      var v = values[f.name];
      if (v === undefined || v === null || v === "") return;
      if (f.kind === "seat" && players[v] !== undefined) out.push(players[v] + " (" + f.label.toLowerCase() + ")");
      else if (f.kind === "choice") {
        var c = (f.choices || []).filter(function (o) { return o.value === v; })[0];
        if (c) out.push(c.label.toLowerCase());
      } else if (f.kind === "card" && byCode[v]) out.push(f.label.toLowerCase() + " " + byCode[v].name);
    });
    return out;
  }
  /* a deal refused on its arrival, opened back into the page to be fixed and sent (it leaves the outbox then) */
  function reopen(k) {
    if (!k.deal) return;
    deal = JSON.parse(JSON.stringify(k.deal));
    deal.key = newKey();  // a changed deal is a new request
    state = null; keep();
    keptHere = keptHere.filter(function (item) { return item !== k; });
    window.LeveeOffline.remove(k.key).then(function () {
      problemsBox.textContent = "";
      follow();
      if (keptHere.length) renderKept();
      renderDeclarations(); render(); renderSave(); refresh();
      window.scrollTo(0, 0);
    });
  }
  /* the page (re)opened with deals of this table waiting in this device's outbox (a reload without network):
     they are counted, as when they were kept — the heading, « after », the next dealer, the box at the top */
  function fromOutbox() {
    if (correcting || !config.offlineUrl || !window.LeveeOffline || !window.LeveeOffline.items) return;
    window.LeveeOffline.items().then(function (items) {
      var mine = items.filter(function (i) {
        return i.url_post === config.offlineUrl && (i.state === "waiting" || i.state === "refused") &&
          !keptHere.some(function (k) { return k.key === i.key; });
      }).sort(function (a, b) { return a.at - b.at; });
      if (!mine.length) return;
      var last = null;
      mine.forEach(function (i) {
        var n = null;
        (i.fields || []).forEach(function (pair) { if (pair[0] === "after") n = Number(pair[1]) + 1; });
        keptHere.push({key: i.key, n: n, state: i.state, why: i.message || "", deal: i.deal || null, where: i.page || i.where || ""});
        if (i.state === "waiting") last = i;
      });
      if (last && config.dealerAdvances && typeof last.dealer === "number") {
        config.dealer = (last.dealer + 1) % players.length;
        if (!restored) { deal.values.dealer = config.dealer; store(); renderDeclarations(); }
      }
      follow();
      renderKept();
    });
  }
  function sentence(text) {
    text = (text || "").trim();
    return !text || /[.!?…»)]$/.test(text) ? text : text + ".";
  }
  function renderKept() {
    var box = document.getElementById("kept-here");
    if (!box) {  // the problems shown since took its place: put back at the top
      box = el("div", {class: "panel kept-here", role: "status", id: "kept-here", tabindex: "-1"});
      problemsBox.insertBefore(box, problemsBox.firstChild);
    }
    box.textContent = "";
    keptHere.forEach(function (k, i) {
      var n = String(k.n), text, css = "kept-line";
      if (k.state === "sent") {
        text = T.keptSent.replace("%(n)s", n);
      } else if (k.state === "refused") {
        // with the deal's copy, « Reprendre cette donne » beside the sentence, which says so
        text = (k.deal ? T.keptRefused : T.keptRefusedListed).replace("%(n)s", n)
          .replace("%(why)s", sentence(k.why) || T.keptNoReason);
        css += " msg msg-error";
      } else if (i === keptHere.length - 1) {
        text = T.keptOffline.replace("%(n)s", n).replace("%(next)s", String(k.n + 1));
      } else {
        text = T.keptWaiting.replace("%(n)s", n);
      }
      var line = el("p", {class: css, text: text});
      if (k.state === "refused" && k.deal) {
        line.appendChild(document.createTextNode(" "));
        line.appendChild(el("button", {type: "button", class: "btn", text: T.reopen, onclick: function () { reopen(k); }}));
      } else if (k.state === "refused" && k.where && k.where.split("?")[0] !== location.pathname) {
        // kept by the table's other entry page (the expert form): its own list opens it back, there
        line.appendChild(document.createTextNode(" "));
        line.appendChild(el("a", {class: "btn", href: k.where, text: T.openWhereKept}));
      }
      box.appendChild(line);
    });
    return box;
  }
  window.addEventListener("levee:outbox", function (event) {
    var d = event.detail || {};
    var k = keptHere.filter(function (item) { return item.key === d.key; })[0];
    if (!k || (d.state !== "sent" && d.state !== "refused")) return;
    k.state = d.state;
    k.why = (d.reasons && d.reasons.length ? d.reasons.map(sentence).join(" ") : d.message) || "";
    if (d.state === "sent" && typeof d.number === "number") k.n = d.number;  // the number the server gave it
    // what the server said of the table: its last deal (this one, or another device's), the next dealer
    var last = d.state === "sent" ? d.number : d.after;
    if (typeof last === "number" && tableLast !== null) tableLast = Math.max(tableLast, last);
    follow();
    renderKept();
  });

  function render() { renderPlay(); }

  root.textContent = "";
  function changedFromStart() {  // a correction's draft counts as kept only once it differs from the saved deal
    if (!config.initial) return deal.cards.length || Object.keys(deal.values).length > 1;
    if ((deal.reason || "").trim()) return true;
    var kept = deal, now = JSON.stringify(record());
    deal = fresh();
    var start = JSON.stringify(record());
    deal = kept;
    return now !== start;
  }
  if (restored && changedFromStart()) {
    root.appendChild(el("p", {class: "msg msg-success", role: "status", text: T.kept}));
  }
  root.appendChild(problemsBox);
  root.appendChild(declBox);
  root.appendChild(playBox);
  root.appendChild(saveBox);
  root.appendChild(liveNote);
  renderDeclarations();
  render();
  renderSave();
  refresh();
  // the outbox (offline-entry.js, deferred after this script) is ready once the document is
  if (window.LeveeOffline) fromOutbox();
  else document.addEventListener("DOMContentLoaded", function () { setTimeout(fromOutbox, 0); });
})();
