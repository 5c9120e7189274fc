(function () {
  "use strict";
  // Every text below reaches the page through textContent, never innerHTML: quotes and document
  // names are data, and a quote holding a script tag must show as those characters.
  var DATA = JSON.parse(document.getElementById("qv-data").textContent);
  var QUOTES = DATA.quotes;
  var KEY = "quoteverify:" + DATA.run;
  var KEYS = { a: "accept", r: "reject", f: "fix quote", s: "fix source" };
  // Cards are built this many at a time as the reader scrolls: 5,000 at once would take seconds.
  var BATCH = 40;
  var AHEAD = 1500;

  var decision = QUOTES.map(function (q) { return q.decision || ""; });
  var note = QUOTES.map(function (q) { return q.note || ""; });
  var stored = false;
  var saved = {};
  try {
    saved = JSON.parse(window.localStorage.getItem(KEY) || "{}") || {};
    stored = true;
  } catch (e) {
    document.getElementById("storage-warning").hidden = false;
  }
  // A decision is kept for the quote it was made on: its id, and its text found in the same place.
  function key(q) { return q.id + "\u001f" + q.fp; }
  QUOTES.forEach(function (q, i) {
    var s = saved[key(q)];
    if (s) { decision[i] = s.d || ""; note[i] = s.n || ""; }
  });

  function save(i) {
    saved[key(QUOTES[i])] = { d: decision[i], n: note[i] };
    if (!stored) return;
    try { window.localStorage.setItem(KEY, JSON.stringify(saved)); } catch (e) {
      stored = false;
      document.getElementById("storage-warning").hidden = false;
    }
  }

  var list = document.getElementById("cards");
  var sentinel = document.getElementById("sentinel");
  var visible = [];      // indexes into QUOTES that pass the filters, in page order
  var rendered = 0;      // how many of them have a card
  var cards = [];        // card element by position in visible
  var current = -1;      // position in visible of the selected card

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null && text !== "") node.textContent = String(text);
    return node;
  }

  var SEVERITY = { l: "hl-l", c: "hl-c", b: "hl-b" };
  var SEVERITY_TITLE = { l: "number, negation or name changed", c: "other wording, elision or order",
                         b: "normalization, punctuation, editorial, disfluency" };
  function appendSegments(parent, segments) {
    (segments || []).forEach(function (part) {
      if (typeof part === "string") { parent.appendChild(document.createTextNode(part)); return; }
      var mark = el("span", SEVERITY[part[1]], part[0]);
      mark.title = SEVERITY_TITLE[part[1]];
      parent.appendChild(mark);
    });
  }

  function number(value, digits) { return value === undefined || value === null ? "" : value.toFixed(digits); }

  function metaItem(parent, label, value) {
    if (value === undefined || value === null || value === "") return;
    var item = el("span", null, label + " ");
    item.appendChild(el("b", null, value));
    parent.appendChild(item);
  }

  function card(i, position) {
    var q = QUOTES[i];
    var node = el("article", "card st-" + q.status);
    node.dataset.index = String(i);
    node.dataset.position = String(position);
    node.dataset.quoteId = q.id;

    var meta = el("div", "meta");
    meta.appendChild(el("span", "badge st-" + q.status + (q.unchecked ? " unchecked" : ""), q.status));
    if (q.severity) {
      var severity = el("span", "badge sev-" + q.severity, q.severity);
      severity.title = "severity: " + q.severity;
      meta.appendChild(severity);
    }
    meta.appendChild(el("b", "match", q.match));
    // In review, how likely a strict editor would call it a change of meaning (p_change); else how sure the
    // match is: a number change's confidence says nothing of whether the change matters.
    if (q.p_change !== undefined) metaItem(meta, "p_change", Math.round(q.p_change * 100) + "% likely a change of meaning");
    else metaItem(meta, "confidence", number(q.confidence, 2) + (q.band ? " (" + q.band + ")" : ""));
    metaItem(meta, "quote", q.id);
    metaItem(meta, "row", q.row);
    metaItem(meta, "document", q.document || (q.claimed ? q.claimed + " (claimed)" : ""));
    if (q.document && q.claimed && q.claimed !== q.document) metaItem(meta, "claimed", q.claimed);
    metaItem(meta, "line", q.line);
    // A printed page number as the reader cites it; else the page's position in the file, said so.
    metaItem(meta, "page", q.page && q.page + (q.page_kind === "position" ? " (position in the file)" : ""));
    // A line-numbered transcript's page:line, as its readers cite it.
    metaItem(meta, "page:line", q.cite);
    metaItem(meta, "place", q.place);
    metaItem(meta, "also at", q.others);
    metaItem(meta, "speaker", q.speaker);
    metaItem(meta, "time", q.timestamp);
    node.appendChild(meta);
    // A QDA segment's codes (its first is also its finding), else the finding the quote is cited for.
    if (q.codes || q.finding) {
      var codes = el("p", "codes", q.codes ? "codes " : "finding ");
      codes.appendChild(el("b", null, q.codes || q.finding));
      node.appendChild(codes);
    }

    var pair = el("div", "pair");
    var quote = el("div", "quote");
    quote.appendChild(el("h3", null, "Quote"));
    var quoteText = el("p", "text");
    appendSegments(quoteText, q.quote);
    if (!q.quote) quoteText.appendChild(el("span", "none", "(empty)"));
    quote.appendChild(quoteText);
    var source = el("div", "source");
    source.appendChild(el("h3", null, q.matched ? "Source" : "Source: not found"));
    var sourceText = el("p", "text");
    if (q.matched) {
      if (q.before) sourceText.appendChild(el("span", "context", "…" + q.before));
      var span = el("span", "span");
      appendSegments(span, q.matched);
      sourceText.appendChild(span);
      if (q.after) sourceText.appendChild(el("span", "context", q.after + "…"));
    } else {
      sourceText.appendChild(el("span", "none", "No passage in the sources aligns with this quote."));
      // The suggestion names itself ("closest passage: interview-03 line 60: '...'").
      if (q.suggestion) sourceText.appendChild(el("span", "suggestion", "\n" + q.suggestion));
    }
    source.appendChild(sourceText);
    pair.appendChild(quote);
    pair.appendChild(source);
    node.appendChild(pair);

    if (q.reasons && q.reasons.length) {
      var reasons = el("ul", "reasons");
      q.reasons.forEach(function (reason) { reasons.appendChild(el("li", null, reason)); });
      node.appendChild(reasons);
    }
    var evidence = [];
    if (q.cosine !== undefined) evidence.push("cosine " + number(q.cosine, 3));
    if (q.match_ratio !== undefined) evidence.push("match ratio " + number(q.match_ratio, 3));
    if (q.bm25 !== undefined) evidence.push("BM25 " + number(q.bm25, 2));
    if (q.kinds) evidence.push("differences: " + q.kinds.join(", "));
    if (evidence.length) node.appendChild(el("p", "evidence", evidence.join(" · ")));

    var decide = el("div", "decide");
    DATA.decisions.forEach(function (d) {
      var key = Object.keys(KEYS).filter(function (k) { return KEYS[k] === d; })[0];
      var button = el("button", null, d + " (" + key + ")");
      button.type = "button";
      button.dataset.decision = d;
      button.addEventListener("click", function () { select(position); decide_(i, decision[i] === d ? "" : d); });
      decide.appendChild(button);
    });
    var area = el("textarea");
    area.placeholder = "note";
    area.setAttribute("aria-label", "note on quote " + q.id);
    area.value = note[i];
    area.addEventListener("input", function () { note[i] = area.value; save(i); });
    area.addEventListener("focus", function () { select(position, true); });
    decide.appendChild(area);
    node.appendChild(decide);
    node.addEventListener("click", function (event) {
      if (event.target === node || !event.target.closest("button, textarea")) select(position, true);
    });
    showDecision(node, i);
    return node;
  }

  function showDecision(node, i) {
    node.classList.toggle("decided", decision[i] !== "");
    node.dataset.decision = decision[i];
    Array.prototype.forEach.call(node.querySelectorAll("button[data-decision]"), function (button) {
      button.setAttribute("aria-pressed", button.dataset.decision === decision[i] ? "true" : "false");
    });
  }

  function decide_(i, value) {
    decision[i] = value;
    save(i);
    var position = visible.indexOf(i);
    if (position >= 0 && cards[position]) showDecision(cards[position], i);
    progress();
  }

  // Only quotes in review or unverified need a decision; a verified one may have one all the same.
  var TO_DECIDE = QUOTES.filter(function (q) { return q.status !== "verified"; }).length;
  function progress() {
    var done = decision.filter(function (d, i) { return d !== "" && QUOTES[i].status !== "verified"; }).length;
    document.getElementById("progress").textContent = "decided " + done + " of " + TO_DECIDE + " to decide";
  }

  // --- filters --------------------------------------------------------------------------------
  var filters = {
    status: document.getElementById("f-status"), severity: document.getElementById("f-severity"),
    match: document.getElementById("f-match"),
    kind: document.getElementById("f-kind"), document: document.getElementById("f-document"),
    decision: document.getElementById("f-decision"), text: document.getElementById("f-text")
  };
  var haystack = QUOTES.map(function (q) {
    function flat(segments) {
      return (segments || []).map(function (p) { return typeof p === "string" ? p : p[0]; }).join("");
    }
    return [q.id, flat(q.quote), flat(q.matched), q.document, q.claimed, q.speaker, q.codes, q.finding,
            (q.reasons || []).join(" "), q.suggestion].join("\n").toLowerCase();
  });

  function passes(i) {
    var q = QUOTES[i];
    if (filters.status.value && q.status !== filters.status.value) return false;
    if (filters.severity.value && q.severity !== filters.severity.value) return false;
    if (filters.match.value && q.match !== filters.match.value) return false;
    if (filters.kind.value && (q.kinds || []).indexOf(filters.kind.value) < 0) return false;
    if (filters.document.value && q.group !== filters.document.value) return false;
    var wanted = filters.decision.value;
    if (wanted === "-" && decision[i] !== "") return false;
    if (wanted && wanted !== "-" && decision[i] !== wanted) return false;
    var words = filters.text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var text = haystack[i] + "\n" + note[i].toLowerCase();
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  }

  function applyFilters() {
    visible = [];
    for (var i = 0; i < QUOTES.length; i++) if (passes(i)) visible.push(i);
    list.textContent = "";
    cards = [];
    rendered = 0;
    current = -1;
    document.getElementById("shown").textContent = "showing " + visible.length + " of " + QUOTES.length;
    document.getElementById("empty").hidden = visible.length > 0;
    fill();
  }

  function renderMore() {
    var end = Math.min(rendered + BATCH, visible.length);
    var fragment = document.createDocumentFragment();
    for (; rendered < end; rendered++) {
      cards[rendered] = card(visible[rendered], rendered);
      fragment.appendChild(cards[rendered]);
    }
    list.appendChild(fragment);
  }

  function fill() {
    while (rendered < visible.length && sentinel.getBoundingClientRect().top < window.innerHeight + AHEAD) renderMore();
  }

  // --- keys -----------------------------------------------------------------------------------
  function select(position, quiet) {
    if (position < 0 || position >= visible.length) return;
    while (position >= rendered) renderMore();
    if (current >= 0 && cards[current]) cards[current].classList.remove("current");
    current = position;
    cards[current].classList.add("current");
    if (!quiet) cards[current].scrollIntoView({ block: "nearest" });
  }

  function move(step) {
    if (!visible.length) return;
    select(current < 0 ? 0 : Math.max(0, Math.min(visible.length - 1, current + step)));
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) {
      if (event.key === "Escape") target.blur();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var key = event.key;
    if (key === "j" || key === "ArrowDown") move(1);
    else if (key === "k" || key === "ArrowUp") move(-1);
    else if (KEYS[key] && current >= 0) decide_(visible[current], KEYS[key]);
    else if (key === "u" && current >= 0) decide_(visible[current], "");
    else if (key === "n" && current >= 0) cards[current].querySelector("textarea").focus();
    else if (key === "/") filters.text.focus();
    else if (key === "?") { var keys = document.getElementById("keys"); keys.open = !keys.open; }
    else return;
    event.preventDefault();
  });

  // --- saving decisions -------------------------------------------------------------------------
  var FORMULA = /^'*[=+\-@\t\r]/;
  function csvCell(value) {
    var text = value === undefined || value === null ? "" : String(value);
    // As the results CSV: a leading ' keeps a spreadsheet from running "=..." as a formula.
    if (FORMULA.test(text)) text = "'" + text;
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function rows() {
    return QUOTES.map(function (q, i) {
      return { quote_id: q.id, row: q.row === undefined ? null : q.row, status: q.status,
               decision: decision[i], reviewer_note: note[i], fingerprint: q.fp };
    });
  }

  function download(name, type, text) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: type }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  document.getElementById("save-json").addEventListener("click", function () {
    var data = { format: "quoteverify decisions", version: 1, run: DATA.run, decisions: rows() };
    download("decisions-" + DATA.run + ".json", "application/json", JSON.stringify(data, null, 1) + "\n");
  });
  document.getElementById("save-csv").addEventListener("click", function () {
    var columns = ["quote_id", "row", "status", "decision", "reviewer_note", "fingerprint"];
    var lines = [columns.join(",")].concat(rows().map(function (row) {
      return columns.map(function (c) { return csvCell(row[c]); }).join(",");
    }));
    download("decisions-" + DATA.run + ".csv", "text/csv", lines.join("\r\n") + "\r\n");
  });

  Object.keys(filters).forEach(function (name) {
    filters[name].addEventListener(name === "text" ? "input" : "change", applyFilters);
  });
  window.addEventListener("scroll", fill, { passive: true });
  window.addEventListener("resize", fill);
  progress();
  applyFilters();
})();
