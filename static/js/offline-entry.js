// Levée — offline-first entry, for any entry form (no framework, no build step).
//
// A form opts in with data-offline-url="<url answering JSON>" and, beside it, an element #offline-entry holding
// the sentences in the page's language (data-waiting, data-waiting-server, data-sent, data-refused, data-offline,
// data-saved-here, data-draft-restored, data-busy). Then:
//  * the deal being typed is kept in IndexedDB at every change (a reload, a closed tab lose nothing) and put
//    back when the page opens again;
//  * « save » puts the deal in an outbox (IndexedDB) with its Idempotency-Key, then sends it; without network it
//    waits, and is sent when the network returns (the "online" event, and every 20 s), never twice: the key
//    makes a second sending return the first deal;
//  * a server that answers but is busy (503, 429, any 5xx: the database restarting, a rate) is not « no network »:
//    the note says the server is busy and when the next try is (« nouvel essai dans N s », from its Retry-After,
//    10 s without one), and nothing is sent before then;
//  * the outbox is shown under the form: each deal waiting, sent (with its number and a link), or refused with
//    the server's reason (the rules check needs the server: it runs when the deal arrives).
// window.LeveeOffline exposes flush() and items() (used by tests and by other pages), enqueue(url, pairs, key, extra):
// the tap page (deal-entry.js, which has no form) puts a deal there when the network is gone, with `extra` kept
// beside it (its title « Donne 3 · Anne (preneur) · garde » shown in the list, the deal as the page holds it, to be
// opened back), and remove(key) (a refused deal opened back into the page). Each deal sent or refused is told to
// the page as a "levee:outbox" event on window (detail: key, state, message, number, after, dealer).
// A plain form (no outbox: the call to the arbiter, the chief's ruling) opts in with data-keep-draft: what is typed
// is kept as a draft the same way (a reload, a closed tab, a lost network lose nothing) and put back; it is sent by
// fetch asking for JSON, once (a double tap, a second press while it goes, are ignored); the server's answer
// {url} is the sign it was taken: the draft is dropped and the page goes on there. Without network, or a busy
// server, the draft stays and the form's .kept-note says so (its data-offline, data-busy sentences); a refusal
// (the form's errors) is shown by sending the form as a plain one again, nothing having been recorded.
// Whose: a desk's page names its signed-in arbiter by an opaque mark (body[data-keeper]); the drafts are kept under it
// and every outbox line carries it: a tablet shared at the venue never shows, nor sends, what one arbiter kept to
// the next one to sign in, and gives it back to him when he signs in again (the pages of a table's link: « »).
// Deals are sent with the session's CSRF token of now (its cookie), not the one kept with them: signing in again
// changes it, and the kept one would make the deal refused.
// Deals kept one after another on this device are sent in order, each after the one before it: the « after » of a
// later deal is moved past the number the earlier one got, so that the device's own deal is never taken for « the
// same deal from another device » (a walk: a reload without network, the next deal kept with the same « after »).
(function () {
  "use strict";
  const DB = "levee-offline", VERSION = 1;
  const keeper = (document.body && document.body.dataset.keeper) || "";
  // a line kept before lines were kept per arbiter carries no mark: whoever opens its page has it, as then
  const mine = (item) => item.keeper === undefined || item.keeper === keeper;
  const draftOf = (where) => (keeper ? where + " @" + keeper : where);
  function csrfNow(kept) {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : kept;
  }

  function open() {
    return new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains("drafts")) db.createObjectStore("drafts", {keyPath: "where"});
        if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", {keyPath: "key"});
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  async function tx(store, mode, fn) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const t = db.transaction(store, mode);
      const result = fn(t.objectStore(store));
      t.oncomplete = () => resolve(result && "result" in result ? result.result : result);
      t.onerror = () => reject(t.error);
    });
  }
  const put = (store, value) => tx(store, "readwrite", (s) => s.put(value));
  const get = (store, key) => tx(store, "readonly", (s) => s.get(key));
  const del = (store, key) => tx(store, "readwrite", (s) => s.delete(key));
  const all = (store) => tx(store, "readonly", (s) => s.getAll());

  // the server's reasons as French sentences, one after the other: « … la donne 3. Le donneur … » (they were
  // joined by « ; », which gave « donne 3. ; Le donneur »)
  function sentences(reasons) {
    return reasons.map((r) => String(r).trim()).filter((r) => r)
      .map((r) => r.charAt(0).toUpperCase() + r.slice(1))
      .map((r) => (/[.!?…»]$/.test(r) ? r : r + "."))
      .join(" ");
  }

  function newKey() {
    if (self.crypto && crypto.randomUUID) return crypto.randomUUID();
    const a = new Uint8Array(16);
    crypto.getRandomValues(a);
    return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function fields(form, submitter) {
    const pairs = Array.from(new FormData(form).entries()).filter(([, v]) => typeof v === "string");
    // the button pressed is part of what is sent (« La saisir quand même » is irregular=1), as a plain form sends it
    if (submitter && submitter.name) pairs.push([submitter.name, submitter.value]);
    return pairs;
  }
  function restore(form, pairs) {
    const byName = {};
    pairs.forEach(([k, v]) => { (byName[k] = byName[k] || []).push(v); });
    Array.from(form.elements).forEach((el) => {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      const values = byName[el.name] || [];
      if (el.type === "radio" || el.type === "checkbox") el.checked = values.includes(el.value);
      else if (el.tagName === "SELECT" && el.multiple) Array.from(el.options).forEach((o) => { o.selected = values.includes(o.value); });
      else if (values.length) el.value = values[0];
    });
  }

  // a draft: the form's fields as typed, kept under `where` (with the key its sending will carry), put back when
  // the page opens again; the deal entry forms and the plain forms that keep theirs (data-keep-draft) share it
  async function saveDraft(form, where) {
    const draft = (await get("drafts", draftOf(where))) || {where: draftOf(where), key: newKey(), keeper: keeper};
    draft.fields = fields(form);
    draft.at = Date.now();
    await put("drafts", draft);
  }
  function keepDraft(form, where) {
    form.addEventListener("input", () => saveDraft(form, where));
    form.addEventListener("change", () => saveDraft(form, where));
  }
  async function restoreDraft(form, where) {
    let draft = await get("drafts", draftOf(where));
    if (!draft && keeper) {  // a draft kept before drafts were kept per arbiter: taken over by who opens it first
      const old = await get("drafts", where);
      if (old && old.keeper === undefined) {
        draft = Object.assign(old, {where: draftOf(where), keeper: keeper});
        await put("drafts", draft);
        await del("drafts", where);
      }
    }
    if (!(draft && draft.fields && draft.fields.length)) return false;
    restore(form, draft.fields);
    return true;
  }

  function keptForm(form) {
    const where = "form " + location.pathname + location.search;
    const note = form.querySelector(".kept-note");
    const say = (text) => { if (note) { note.textContent = text || ""; note.hidden = !text; } };
    let sending = false;
    keepDraft(form, where);
    restoreDraft(form, where);
    window.addEventListener("pageshow", () => { sending = false; });  // back to a page kept in memory
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (sending) return;  // a double tap: the first press is on its way
      sending = true;
      await saveDraft(form, where);  // what is sent is what is kept, until the server has it
      const pairs = fields(form, event.submitter);
      let response;
      try {
        response = await fetch(form.action || location.href, {
          method: "POST", credentials: "same-origin", headers: {"Accept": "application/json"},
          body: new URLSearchParams(pairs)});
      } catch (e) {
        sending = false;
        say(note && note.dataset.offline);
        return;
      }
      if (response.status >= 500 || response.status === 429) {
        sending = false;
        say(note && note.dataset.busy);
        return;
      }
      let body = null;
      if ((response.headers.get("Content-Type") || "").includes("application/json")) {
        try { body = await response.json(); } catch (e) { body = null; }
      }
      if (response.ok && body && body.url) {
        await del("drafts", draftOf(where));
        location.assign(body.url);
        return;
      }
      // refused (the form's errors), or sent elsewhere (the session ended: the login page): the page says it,
      // as for a plain form; the draft stays
      submitPlain(form, event.submitter);
    });
  }

  // the form sent as a plain form (the page's own answer then says what is wrong): submit() sends no button, so
  // the one pressed is kept as a hidden field
  function submitPlain(form, submitter) {
    if (submitter && submitter.name) {
      const pressed = document.createElement("input");
      pressed.type = "hidden";
      pressed.name = submitter.name;
      pressed.value = submitter.value;
      form.appendChild(pressed);
    }
    HTMLFormElement.prototype.submit.call(form);
  }

  function init() {
    if (window.indexedDB) document.querySelectorAll("form[data-keep-draft]").forEach(keptForm);
    const form = document.querySelector("form[data-offline-url]");
    const panel = document.getElementById("offline-entry");
    if (!panel || !window.indexedDB) return;
    const words = panel.dataset;
    const where = location.pathname;
    const list = panel.querySelector("ol") || panel.appendChild(document.createElement("ol"));
    let sending = false;
    let busyUntil = 0, busyTimer = null;  // the server asked to wait (Retry-After) until then

    const note = () => panel.querySelector(".offline-note");
    const isBusy = () => Date.now() < busyUntil;
    function retryAfter(response) {
      const raw = response.headers.get("Retry-After") || "";
      let seconds = /^\s*\d+\s*$/.test(raw) ? parseInt(raw, 10) : Math.ceil((Date.parse(raw) - Date.now()) / 1000);
      if (!(seconds > 0)) seconds = 10;
      return Math.min(seconds, 300);
    }
    function showBusy() {
      const left = Math.max(1, Math.ceil((busyUntil - Date.now()) / 1000));
      panel.dataset.note = panel.dataset.busyShown = "1";  // not data-busy: the sentence
      panel.hidden = false;
      if (note()) note().textContent = (words.busy || "").replace("{n}", String(left));
    }
    function busy(seconds) {
      busyUntil = Date.now() + seconds * 1000;
      clearInterval(busyTimer);
      showBusy();
      busyTimer = setInterval(() => {
        if (isBusy()) { showBusy(); return; }
        clearInterval(busyTimer);
        busyTimer = null;
        flush();
      }, 1000);
    }

    /* a page whose heading is the deal's number (the desk's expert entry: h1[data-deal-heading]) says the next
       deal's as deals are kept here, and counts those still waiting when it is opened again (a reload without
       network said « Donne 1 » again, and the next deal kept took the same number) — as the tap page does */
    function headingFollows() {
      const h1 = document.querySelector("h1[data-deal-heading]"), spec = document.getElementById("outbox-words");
      const after = form && form.querySelector("input[data-count-up]");
      if (!h1 || !spec || !after) return;
      try { h1.textContent = JSON.parse(spec.textContent).heading.replace("%(n)s", String(Number(after.value || 0) + 1)); }
      catch (e) { /* no words: the heading stays */ }
    }
    async function countKept() {
      const after = form && form.querySelector("input[data-count-up]");
      if (!after || !document.querySelector("h1[data-deal-heading]")) return;
      let last = Number(after.defaultValue || 0);
      (await all("outbox")).filter((i) => mine(i) && i.where === where && i.state === "waiting").forEach((i) => {
        const pair = (i.fields || []).find(([k]) => k === "after");
        if (pair) last = Math.max(last, Number(pair[1]) + 1);
      });
      if (last !== Number(after.defaultValue || 0)) {
        after.defaultValue = after.value = String(last);
        headingFollows();
      }
    }

    async function render() {
      const items = (await all("outbox")).filter((i) => mine(i) && i.where === where).sort((a, b) => a.at - b.at);
      panel.hidden = items.length === 0 && !panel.dataset.note;
      list.replaceChildren(...items.map((item) => {
        const li = document.createElement("li");
        li.className = "outbox-" + item.state;
        li.dataset.key = item.key;
        const when = new Date(item.at).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
        const label = document.createElement("strong");
        const state = item.state === "waiting" && isBusy() ? "waitingServer" : item.state;
        label.textContent = (item.title || when) + " — " + (words[state] || item.state);
        li.append(label);
        if (item.message) { li.append(" · " + item.message); }
        const mode = (pairs) => ((pairs || []).find(([k]) => k === "mode") || [])[1];
        if (item.state === "refused" && form && form.elements.mode && mode(item.fields) === form.elements.mode.value &&
            words.reopen) {
          // refused on its arrival: opened back into this form to be fixed and saved again (it leaves the outbox)
          const again = document.createElement("button");
          again.type = "button"; again.className = "btn btn-small"; again.textContent = words.reopen;
          again.addEventListener("click", () => reopen(item));
          li.append(" ", again);
        }
        if (item.url) {
          const a = document.createElement("a");
          a.href = item.url; a.textContent = " ›"; a.setAttribute("aria-label", item.message || words.sent);
          li.append(a);
        }
        return li;
      }));
    }
    /* an earlier deal of this device got `number`: the later ones kept after it (same table, still waiting) whose
       « after » it alone makes stale are moved past it, in the outbox itself (a later flush, a reload keep it) */
    async function follow(sent, number) {
      const value = (item) => { const pair = item.fields.find(([k]) => k === "after"); return pair ? Number(pair[1]) : NaN; };
      const from = value(sent);
      if (Number.isNaN(from) || typeof number !== "number") return;
      const later = (await all("outbox")).filter((i) => mine(i) && i.state === "waiting" && i.url_post === sent.url_post &&
                                                 i.at >= sent.at && i.key !== sent.key);
      for (const item of later) {
        const after = value(item);
        if (Number.isNaN(after) || after < from || after >= number) continue;
        item.fields = item.fields.map(([k, v]) => (k === "after" ? [k, String(number)] : [k, v]));
        await put("outbox", item);
      }
    }
    async function flush() {
      if (sending || isBusy()) return;  // busy: the next try is when the server said
      sending = true;
      try {
        const keys = (await all("outbox")).filter((i) => mine(i) && i.state === "waiting").sort((a, b) => a.at - b.at)
          .map((i) => i.key);
        for (const key of keys) {
          const item = await get("outbox", key);  // read again: an earlier deal may have moved its « after »
          if (!item || item.state !== "waiting" || !mine(item)) continue;
          const token = csrfNow((item.fields.find(([k]) => k === "csrfmiddlewaretoken") || [])[1] || "");
          let response;
          try {
            response = await fetch(item.url_post, {
              method: "POST", credentials: "same-origin",
              headers: {"Idempotency-Key": item.key, "Accept": "application/json", "X-CSRFToken": token},
              body: new URLSearchParams(item.fields.map(([k, v]) => (k === "csrfmiddlewaretoken" ? [k, token] : [k, v]))),
            });
          } catch (e) {
            break;  // no network: everything waits
          }
          let body = {};
          try { body = await response.json(); } catch (e) { body = {}; }
          if (response.ok) {
            Object.assign(item, {state: "sent", message: body.message || "", url: body.url || ""});
          } else if (response.status >= 500 || response.status === 429 || response.status === 0) {
            busy(retryAfter(response));  // the server answers but cannot take it now: not « no network »
            await render();
            break;
          } else {
            const reasons = (body.problems || []).map((p) => (p.where ? p.where + " : " : "") + p.message);
            Object.assign(item, {state: "refused", message: sentences(reasons) || body.message || String(response.status)});
          }
          await put("outbox", item);
          if (item.state === "sent") await follow(item, body.number);
          // the page that kept it is told (the tap page's box at the top: « Donne 5 envoyée. » or refused, and why)
          window.dispatchEvent(new CustomEvent("levee:outbox", {detail: {
            key: item.key, state: item.state, message: item.message,
            reasons: (body.problems || []).map((p) => (p.where ? p.where + " : " : "") + p.message),
            number: typeof body.number === "number" ? body.number : null,
            after: typeof body.after === "number" ? body.after : null,
            dealer: typeof body.dealer === "number" ? body.dealer : null}}));
          if (panel.dataset.busyShown && item.state === "sent") {  // the server took it: its busy note goes
            delete panel.dataset.busyShown;
            if (note()) note().textContent = "";
          }
          await render();
        }
      } finally {
        sending = false;
      }
    }

    async function enqueue(urlPost, pairs, key, extra) {
      const item = Object.assign({}, extra || {}, {key: key || newKey(), where: where, url_post: urlPost, fields: pairs,
                                                   state: "waiting", at: Date.now(), message: "", keeper: keeper,
                                                   page: location.pathname + location.search});
      await put("outbox", item);
      panel.dataset.note = "1";
      if (isBusy()) showBusy();
      else if (note()) note().textContent = words.savedHere;
      await render();
      flush();
      return item.key;
    }
    async function reopen(item) {
      const typed = await get("drafts", draftOf(where));
      if (typed && typed.fields && typed.fields.length && words.reopenReplaces && !window.confirm(words.reopenReplaces)) return;
      restore(form, item.fields);
      await del("drafts", draftOf(where));  // a new draft, with a new key: a changed deal is a new request
      await saveDraft(form, where);
      await del("outbox", item.key);
      await render();
      const first = form.querySelector("textarea, input:not([type=hidden]), select");
      if (first) first.focus();
    }
    async function remove(key) {
      await del("outbox", key);
      await render();
    }
    window.LeveeOffline = {flush: flush, items: async () => (await all("outbox")).filter(mine), enqueue: enqueue,
                           remove: remove};
    window.addEventListener("online", flush);
    setInterval(() => { if (navigator.onLine) flush(); }, 20000);
    if (!form) {
      render().then(flush);
      return;
    }

    keepDraft(form, where);
    form.addEventListener("submit", async (event) => {
      if (event.submitter && event.submitter.formAction && event.submitter.hasAttribute("formaction")) return;
      event.preventDefault();
      const draft = (await get("drafts", draftOf(where))) || {key: newKey()};
      const item = {key: draft.key, where: where, url_post: form.dataset.offlineUrl, fields: fields(form, event.submitter),
                    state: "waiting", at: Date.now(), message: "", title: titleOf(form), keeper: keeper,
                    page: location.pathname + location.search};
      await put("outbox", item);
      await del("drafts", draftOf(where));
      await render();
      await flush();
      const sent = await get("outbox", item.key);
      if (sent && sent.state === "sent" && sent.url && navigator.onLine) {
        location.assign(sent.url);  // online: on to the deal's sheet, as the plain form does
        return;
      }
      if (sent && sent.state === "refused") {
        // online and refused: the page's own answer says best what is wrong, with the form as typed
        await del("outbox", item.key);
        submitPlain(form, event.submitter);
        return;
      }
      form.reset();
      // the table's last deal the form knew (« after »): the deal just kept here comes first, the next one after it
      form.querySelectorAll("input[data-count-up]").forEach((input) => {
        input.defaultValue = input.value = String(Number(input.defaultValue || 0) + 1);
      });
      headingFollows();
      panel.dataset.note = "1";
      if (isBusy()) showBusy();
      else if (note()) note().textContent = words.savedHere;
      await render();
    });
    (async () => {
      await countKept();
      if (await restoreDraft(form, where)) {
        if (note()) note().textContent = words.draftRestored;
        panel.hidden = false;
      }
      await render();
      flush();
    })();
  }

  /* the words of a deal kept from a form holding its JSON record (the desk's expert entry), as the tap page's
     outbox lines say it: « Donne 3 · Chloé (preneur) · petite » — the number after the table's last deal the form
     knew (« after »), then the first phase's declarations read from the record, by the page's #outbox-words (the
     game's entry form: labels, choices, players, cards); « » when the page gives no words (the time is shown) */
  function titleOf(form) {
    const spec = document.getElementById("outbox-words"), after = form.querySelector("input[data-count-up]");
    if (!spec || !after) return "";
    let words, record = null;
    try { words = JSON.parse(spec.textContent); } catch (e) { return ""; }
    const out = [words.heading.replace("%(n)s", String(Number(after.value || 0) + 1))];
    const area = form.querySelector("textarea[name=record]");
    try { record = JSON.parse(area ? area.value : ""); } catch (e) { record = null; }
    if (!record || typeof record !== "object") return out[0];
    const at = (path) => path.split(".").reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), record);
    const empty = (v) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);
    const visible = (f) => (f.when || []).every((w) => (w.filled ? !empty(at(w.field)) : (w.in || []).indexOf(at(w.field)) !== -1));
    (words.fields || []).forEach((f) => {
      const v = at(f.name);
      if (empty(v) || !visible(f)) return;
      const label = String(f.label || "").toLowerCase();
      if (f.kind === "seat" && words.players[v] !== undefined) out.push(words.players[v] + " (" + label + ")");
      else if (f.kind === "choice") {
        const c = (f.choices || []).filter((o) => o.value === v)[0];
        if (c) out.push(String(c.label).toLowerCase());
      } else if (f.kind === "card" && typeof v === "string") out.push(label + " " + (words.cards[v] || v));
    });
    return out.join(" · ");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
