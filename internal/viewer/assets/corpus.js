// The table of a corpus's results (normalizer view): it asks GET /v1/corpus for one page of
// summaries at a time, as the page's address says (offset, limit, code, class, verdict), and
// links each row to the porter's page for that result (/?item=N). Every text from the corpus
// goes in with textContent: nothing it holds is read as HTML. The body's data-state is
// "loading" until a page of rows (or the error) is shown, then "idle", as on the porter's page.

const params = ["offset", "limit", "code", "class", "verdict"];
const here = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

// address is /corpus with the current filters and the given changes; empty values are left out.
function address(changes) {
  const q = new URLSearchParams();
  for (const p of params) {
    const v = p in changes ? changes[p] : here.get(p);
    if (v !== null && v !== undefined && v !== "") q.set(p, String(v));
  }
  const s = q.toString();
  return s ? "/corpus?" + s : "/corpus";
}

function el(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// fillSelect puts one option per value of counts (most first), keeping the selected one even
// when no result has it under the other filters.
function fillSelect(select, counts, selected) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (selected && !(selected in counts)) entries.push([selected, 0]);
  select.replaceChildren(el("option", "any", { value: "" }));
  for (const [value, n] of entries) {
    const o = el("option", `${value} (${n})`, { value });
    if (value === selected) o.selected = true;
    select.append(o);
  }
}

function row(item) {
  const tr = el("tr", undefined, { "data-item": String(item.item), "data-verdict": item.verdict });
  const head = el("th", undefined, { scope: "row" });
  const label = item.name ? item.name : `line ${item.line}`;
  head.append(el("a", label, { href: "/?item=" + item.item }));
  tr.append(head);
  tr.append(el("td", item.verdict, { class: "verdict" }));
  tr.append(el("td", item.class || ""));
  tr.append(el("td", String(item.warnings), { class: "count" }));
  tr.append(el("td", String(item.notes), { class: "count" }));
  const codes = el("ul", undefined, { class: "codes" });
  for (const c of item.codes) {
    const li = el("li");
    li.append(el("a", c, { class: "code", "data-code": c, href: address({ code: c, offset: 0 }), title: "only results with " + c }));
    codes.append(li);
  }
  const td = el("td");
  td.append(codes);
  tr.append(td);
  return tr;
}

function pager(link, offset, enabled) {
  if (enabled) {
    link.href = address({ offset });
    link.removeAttribute("aria-disabled");
  } else {
    link.removeAttribute("href");
    link.setAttribute("aria-disabled", "true");
  }
}

function render(page) {
  $("source").textContent = page.source;
  $("kind").textContent = page.kind === "golden" ? "A golden directory: one result per case." : "A JSON Lines file: one result per line.";
  document.title = "normalizer: " + page.source;
  fillSelect($("class"), page.by_class, here.get("class") || "");
  fillSelect($("code"), page.by_code, here.get("code") || "");
  $("verdict").value = here.get("verdict") || "";
  $("limit").value = String(page.limit);
  $("rows").replaceChildren(...page.items.map(row));
  const first = page.items.length ? page.offset + 1 : 0;
  const last = page.offset + page.items.length;
  let status = `Showing ${first}-${last} of ${page.matching}`;
  if (page.matching !== page.total) status += ` (of ${page.total} in the corpus)`;
  $("status").textContent = status;
  pager($("prev"), Math.max(0, page.offset - page.limit), page.offset > 0);
  pager($("next"), page.offset + page.limit, last < page.matching);
}

function fail(message) {
  $("status").textContent = "No results shown.";
  $("error").textContent = message;
  $("error").hidden = false;
}

async function load() {
  document.body.dataset.state = "loading";
  try {
    await show();
  } finally {
    document.body.dataset.state = "idle";
  }
}

async function show() {
  const q = new URLSearchParams();
  for (const p of params) if (here.get(p)) q.set(p, here.get(p));
  let res, body;
  try {
    res = await fetch("/v1/corpus?" + q, { headers: { Accept: "application/json" } });
    body = await res.json();
  } catch (e) {
    fail("The corpus could not be read from the server: " + e.message);
    return;
  }
  if (!res.ok) {
    fail(body && body.error ? body.error.message : "The server answered " + res.status + ".");
    return;
  }
  render(body);
}

// The filters apply when the form is submitted (Apply, or Enter), a plain GET of /corpus with
// no offset, so at the first page: a select that navigated on change would move a keyboard
// user away at the first arrow key.
load();
