// The porter's page. The form's result (pasted, dropped or opened as a file, or the corpus
// item ?item=N) is POSTed as bytes to /v1/normalize?explain=true of this origin; the answer is
// rendered as the verdict, final_response, the trace, metadata, the diagnostics beside the
// input and the fixes, which POST /v1/fix applies. Nothing leaves this origin and nothing is
// stored.
import { h } from './dom.js';
import { Lines, locate, member, offsetOf, parse, pointerOfPath, raw, valueAt } from './jsonspan.js';
import { renderFinal, renderMetadata, renderTrace } from './trace.js';

const $ = (id) => document.getElementById(id);
const form = $('check');
const input = form.elements.result;
const verdict = $('verdict');
const results = $('results');
const source = $('source');
const applySafe = $('apply-safe');
const applyAll = $('apply-all');

// The bytes last loaded from a file or a corpus item, and the text shown for them: while the
// textarea still holds that text, the check sends the bytes as they came (a textarea turns
// CRLF into LF, and a decoder replaces invalid UTF-8).
let loaded = null; // {text, bytes}
// What the last check sent and got: the bytes, their text, and the record's diagnostics.
let checked = null; // {bytes, text, root, diagnostics}
let beforeFix = null; // the text and bytes before the last fixes were applied
let checks = 0;
let controller = null;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function bodyOfInput() {
  if (loaded && input.value === loaded.text) return loaded.bytes;
  return new TextEncoder().encode(input.value);
}

function load(bytes) {
  const text = decoder.decode(bytes);
  input.value = text;
  loaded = { text: input.value, bytes };
}

async function readJSON(resp) {
  const text = await resp.text();
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    return { text, value: null };
  }
}

function setBusy(busy) {
  form.setAttribute('aria-busy', busy ? 'true' : 'false');
  document.body.dataset.state = busy ? 'checking' : 'idle';
}

// check sends bytes and renders what the service answers.
async function check(bytes) {
  controller?.abort();
  controller = new AbortController();
  const { signal } = controller;
  setBusy(true);
  const text = decoder.decode(bytes);
  let resp;
  let answer;
  try {
    resp = await fetch('/v1/normalize?explain=true', { method: 'POST', body: bytes, signal, headers: { 'Content-Type': 'application/json' } });
    answer = await readJSON(resp);
  } catch (err) {
    if (signal.aborted) return;
    showError(`The service did not answer: ${err.message}`);
    finish();
    return;
  }
  if (signal.aborted) return;
  const error = answer.value?.error;
  if (resp.ok && answer.value && !error) {
    showAccepted(bytes, text, answer);
  } else if (error && ['InvalidJSON', 'ResponseShapeError', 'PayloadTooLarge'].includes(error.class)) {
    showRejected(bytes, text, error);
  } else {
    showError(error ? `${resp.status} ${error.class}: ${error.message}` : `${resp.status}: the service answered something that is not JSON`);
  }
  finish();
}

function finish() {
  checks++;
  verdict.dataset.check = String(checks);
  setBusy(false);
}

function verdictHead(kind, words) {
  return h('p', { class: 'verdict-head' }, h('strong', {}, kind), words ? ` ${words}` : '');
}

function showError(message) {
  checked = null;
  results.hidden = true;
  verdict.dataset.verdict = 'error';
  verdict.replaceChildren(verdictHead('Not checked:', ''), h('p', { class: 'message' }, message));
  setFixButtons([]);
}

function showRejected(bytes, text, error) {
  checked = { bytes, text, root: null, diagnostics: [] };
  results.hidden = true;
  verdict.dataset.verdict = 'rejected';
  const parts = [verdictHead('Rejected', `(${error.class}): the platform would fail this run.`), h('p', { class: 'message', id: 'rejection-message' }, error.message)];
  let at = -1;
  if (Number.isInteger(error.line) && Number.isInteger(error.column)) {
    at = offsetOf(text, error.line, error.column);
    parts.push(h('p', { class: 'location', id: 'rejection-location' }, `At line ${error.line}, column ${error.column}`,
      Number.isInteger(error.offset) ? ` (byte offset ${error.offset})` : '', '.'));
  } else if (typeof error.path === 'string') {
    parts.push(h('p', { class: 'location', id: 'rejection-location' }, error.path ? `At ${error.path}.` : 'At the top level.'));
    const ptr = pointerOfPath(error.path);
    try {
      const root = parse(text);
      if (ptr !== null) at = locate(root, ptr).start;
    } catch { /* a rejection's input need not be JSON */ }
  }
  if (at >= 0) {
    parts.push(excerpt(text, at));
    parts.push(h('button', { type: 'button', id: 'goto-error', onclick: () => { input.focus(); input.setSelectionRange(at, Math.min(at + 1, input.value.length)); } },
      'Show this place in the result'));
  }
  if (error.limit !== undefined) parts.push(h('p', {}, `The limit is ${Number(error.limit).toLocaleString('en')} bytes.`));
  if (error.advice) parts.push(adviceOf(text, error.advice));
  verdict.replaceChildren(...parts);
  setFixButtons([]);
}

// adviceOf shows a rejection's advice: why the input was rejected, as far as the input shows,
// and the fix, beside the contract's message, with the place it concerns.
function adviceOf(text, a) {
  let at = -1;
  try { at = locate(parse(text), a.pointer).start; } catch { /* the advice's place is only shown when found */ }
  return h('div', { class: 'advice', id: 'rejection-advice', 'data-code': a.code, 'data-pointer': a.pointer },
    h('p', {}, h('strong', {}, 'Why: '), a.problem ?? a.message, ' ', h('code', { class: 'code' }, a.code), ' at ', h('code', { class: 'path' }, a.path || '(the top level)')),
    a.fix?.message ? h('p', {}, h('strong', {}, 'Fix: '), a.fix.message) : null,
    at >= 0 ? excerpt(text, at) : null);
}

// excerpt is the line of text around offset at, the place marked.
function excerpt(text, at) {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  let end = text.indexOf('\n', at);
  if (end === -1) end = text.length;
  const from = Math.max(start, at - 120);
  const to = Math.min(end, at + 120);
  return h('pre', { class: 'excerpt', 'aria-label': 'The line of the problem' },
    from > start ? '…' : '', text.slice(from, at), h('mark', {}, text.slice(at, at + 1) || ' '), text.slice(at + 1, to), to < end ? '…' : '');
}

function showAccepted(bytes, text, answer) {
  let root = null;
  try { root = parse(text); } catch { /* the service read it; a page that cannot only marks nothing */ }
  let record;
  try { record = parse(answer.text); } catch (err) {
    showError(`The record is not JSON the page can read: ${err.message}`);
    return;
  }
  const diagnostics = answer.value.diagnostics ?? [];
  checked = { bytes, text, root, diagnostics };
  const rich = answer.value.rich_mode === true;
  const warnings = diagnostics.filter((d) => d.severity !== 'note').length;
  const notes = diagnostics.length - warnings;
  verdict.dataset.verdict = 'accepted';
  verdict.replaceChildren(
    verdictHead('Accepted:', `the platform grades this run${rich ? ' and shows its trace' : ' on final_response alone (no trace)'}.`),
    h('p', { class: 'counts' }, `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}, ${notes} ${notes === 1 ? 'note' : 'notes'}.`));
  const truncated = diagnostics.some((d) => d.code === 'final_response_truncated');
  renderFinal($('final'), answer.value.final_response, truncated);
  renderTrace($('trace'), $('trace-summary'), answer.text, member(record, 'messages')?.value);
  renderMetadata($('metadata'), answer.text, member(record, 'metadata')?.value);
  renderDiagnostics(text, root, diagnostics);
  renderFixes(text, root, diagnostics);
  results.hidden = false;
}

// The diagnostics, each with the place it concerns; focusing or clicking one marks that place
// in the input as checked.
function renderDiagnostics(text, root, diagnostics) {
  const list = $('diagnostics');
  showSource(text, null);
  if (diagnostics.length === 0) {
    list.replaceChildren(h('li', { class: 'none' }, 'Nothing to warn of or note.'));
    return;
  }
  const lines = root ? new Lines(text) : null; // one table for every diagnostic's line and column
  list.replaceChildren(...diagnostics.map((d, i) => {
    const place = root ? locate(root, d.pointer) : null;
    const at = place ? lines.lineColumn(place.start) : null;
    const where = at ? `line ${at.line}, column ${at.column}${place.found ? '' : ' (the nearest place the input has)'}` : 'not found in the input';
    const parts = [];
    const part = (label, value) => { if (value) parts.push(h('dt', {}, label), h('dd', {}, value)); };
    if (d.subject) part('Subject', d.subject);
    part('Found', d.found);
    part('Expected', d.expected);
    part('Problem', d.problem);
    part('Done', d.done);
    part('Fix', d.fix?.message);
    const el = h('li', {
      class: `diag severity-${d.severity}`, id: `diag-${i}`, 'data-code': d.code, 'data-pointer': d.pointer,
      'data-severity': d.severity, 'data-action': d.action,
    },
    h('button', { type: 'button', class: 'locate', 'aria-describedby': `diag-${i}-message` },
      h('span', { class: `badge ${d.severity}` }, d.severity), ' ', h('code', { class: 'code' }, d.code), ' at ', h('code', { class: 'path' }, d.path || '(the top level)'),
      h('span', { class: 'where' }, ` · ${where}`)),
    h('p', { class: 'message', id: `diag-${i}-message` }, d.message),
    parts.length ? h('dl', { class: 'parts' }, parts) : null,
    h('p', { class: 'action' }, `Action: ${d.action}`, d.fix?.applicability ? `; a ${d.fix.applicability} fix can be applied` : ''));
    const show = () => {
      for (const other of list.querySelectorAll('[aria-current]')) other.removeAttribute('aria-current');
      el.setAttribute('aria-current', 'true');
      if (place) showSource(text, place);
    };
    el.addEventListener('focusin', show);
    el.addEventListener('click', show);
    return el;
  }));
}

// The source view shows at most SOURCE_WINDOW characters of the input: a larger one is shown
// around the place marked (from its start when none is), the rest elided, so that marking a
// place lays out a window of text and not, for each diagnostic focused, the whole input.
const SOURCE_WINDOW = 100_000;

function elided(n, where) {
  return h('span', { class: 'elided' }, `${where === 'before' ? '' : '\n'}… ${n.toLocaleString('en')} more characters ${where}${where === 'before' ? '\n' : ''}`);
}

// showSource shows the input as checked, the place (if any) marked and scrolled to.
function showSource(text, place) {
  if (!place) {
    if (text.length <= SOURCE_WINDOW) source.replaceChildren(text);
    else source.replaceChildren(text.slice(0, SOURCE_WINDOW), elided(text.length - SOURCE_WINDOW, 'after; focus a diagnostic to see its place'));
    return;
  }
  let from = 0;
  let to = text.length;
  let markEnd = place.end;
  if (text.length > SOURCE_WINDOW) {
    markEnd = Math.min(place.end, place.start + SOURCE_WINDOW / 2);
    from = Math.max(0, place.start - SOURCE_WINDOW / 4);
    to = Math.min(text.length, markEnd + SOURCE_WINDOW / 4);
  }
  const mark = h('mark', { id: 'source-mark' }, text.slice(place.start, markEnd));
  source.replaceChildren(from > 0 ? elided(from, 'before') : null, text.slice(from, place.start), mark,
    markEnd < place.end ? elided(place.end - markEnd, 'in the place') : null,
    text.slice(markEnd, to), to < text.length ? elided(text.length - to, 'after') : null);
  // Only the source view scrolls: the focused diagnostic stays where it is.
  source.scrollTop = Math.max(0, mark.offsetTop - source.offsetTop - source.clientHeight / 3);
  const line = mark.offsetLeft - source.offsetLeft;
  source.scrollLeft = Math.max(0, line - source.clientWidth / 3);
}

// The fixes that have a patch, each with its diff against the input.
function renderFixes(text, root, diagnostics) {
  const fixable = diagnostics.filter((d) => d.fix?.patch);
  const list = $('fixes');
  if (fixable.length === 0) {
    list.replaceChildren(h('li', { class: 'none' }, 'No fix to apply.'));
  } else {
    list.replaceChildren(...fixable.map((d) => h('li', { class: `fix ${d.fix.applicability}`, 'data-code': d.code, 'data-pointer': d.pointer, 'data-applicability': d.fix.applicability },
      h('p', {}, h('span', { class: `badge ${d.fix.applicability}` }, d.fix.applicability), ' ', h('code', {}, d.code), ' at ', h('code', {}, d.path || '(the top level)'), ': ', d.fix.message ?? ''),
      h('pre', { class: 'diff', 'aria-label': `The change at ${d.path}` }, patchDiff(text, root, d.fix.patch)))));
  }
  setFixButtons(fixable);
}

// patchDiff is one fix's change as diff lines: what each operation removes and adds, the
// values as the input has them.
function patchDiff(text, root, patch) {
  const at = (ptr) => {
    const node = root ? valueAt(root, ptr) : undefined;
    return node ? raw(text, node) : '(not in the input)';
  };
  const lines = [];
  const del = (s) => lines.push(h('span', { class: 'del' }, `- ${s}\n`));
  const add = (s) => lines.push(h('span', { class: 'add' }, `+ ${s}\n`));
  const same = (s) => lines.push(h('span', { class: 'ctx' }, `  ${s}\n`));
  for (const op of patch) {
    const value = op.value !== undefined ? JSON.stringify(op.value) : '';
    switch (op.op) {
      case 'replace': del(`${op.path}: ${at(op.path)}`); add(`${op.path}: ${value}`); break;
      case 'add': add(`${op.path}: ${value}`); break;
      case 'remove': del(`${op.path}: ${at(op.path)}`); break;
      case 'move': del(`${op.from}: ${at(op.from)}`); add(`${op.path}: ${at(op.from)}`); break;
      case 'copy': add(`${op.path}: ${at(op.from)}`); break;
      case 'test': same(`${op.path}: ${value}`); break;
      default: same(JSON.stringify(op));
    }
  }
  return lines;
}

function setFixButtons(fixable) {
  const safe = fixable.filter((d) => d.fix.applicability === 'safe').length;
  applySafe.disabled = safe === 0;
  applyAll.disabled = fixable.length === 0;
  applySafe.textContent = `Apply safe fixes (${safe})`;
  applyAll.textContent = `Apply all fixes (${fixable.length})`;
}

// applyFixes POSTs what was checked to /v1/fix, shows the fixed result and its diff, and
// checks the fixed result in its place.
async function applyFixes(unsafe) {
  if (!checked) return;
  const { bytes } = checked;
  const q = unsafe ? '?unsafe=true' : '';
  setBusy(true);
  let fixed;
  let diff;
  let applied;
  try {
    const resp = await fetch(`/v1/fix${q}`, { method: 'POST', body: bytes, headers: { 'Content-Type': 'application/json' } });
    if (!resp.ok) {
      const err = await readJSON(resp);
      showError(err.value?.error ? `${resp.status} ${err.value.error.class}: ${err.value.error.message}` : `${resp.status} from POST /v1/fix`);
      finish();
      return;
    }
    applied = resp.headers.get('Normalizer-Fixes-Applied') ?? '?';
    fixed = new Uint8Array(await resp.arrayBuffer());
    const dresp = await fetch(`/v1/fix${q}${q ? '&' : '?'}diff=true`, { method: 'POST', body: bytes, headers: { 'Content-Type': 'application/json' } });
    diff = dresp.ok ? await dresp.text() : '';
  } catch (err) {
    showError(`The service did not answer: ${err.message}`);
    finish();
    return;
  }
  beforeFix = { text: input.value, bytes, loaded };
  const fixedText = decoder.decode(fixed);
  const panel = $('fixed');
  $('fixed-summary').textContent = `${applied} ${applied === '1' ? 'fix' : 'fixes'} applied (${unsafe ? 'all' : 'safe only'}); the fixed result is checked again below and is now in the form.`;
  $('fixed-diff').replaceChildren(...diff.split('\n').filter((l, i, a) => i < a.length - 1 || l !== '').map((l) => h('span', { class: l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx' }, `${l}\n`)));
  if (!diff) $('fixed-diff').textContent = 'Nothing changed.';
  $('fixed-text').value = fixedText;
  const download = $('download-fixed');
  if (download.href) URL.revokeObjectURL(download.href);
  download.href = URL.createObjectURL(new Blob([fixed], { type: 'application/json' }));
  panel.hidden = false;
  load(fixed);
  await check(fixed);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  check(bodyOfInput());
});

input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    form.requestSubmit();
  }
});

async function loadFile(file) {
  load(new Uint8Array(await file.arrayBuffer()));
  $('file-name').textContent = `Loaded ${file.name} (${file.size.toLocaleString('en')} bytes).`;
  form.requestSubmit();
}

$('file').addEventListener('change', (event) => {
  const file = event.target.files?.[0];
  if (file) loadFile(file);
});

form.addEventListener('dragover', (event) => {
  event.preventDefault();
  form.classList.add('dropping');
});
form.addEventListener('dragleave', () => form.classList.remove('dropping'));
form.addEventListener('drop', (event) => {
  event.preventDefault();
  form.classList.remove('dropping');
  const file = event.dataTransfer?.files?.[0];
  if (file) loadFile(file);
});

applySafe.addEventListener('click', () => applyFixes(false));
applyAll.addEventListener('click', () => applyFixes(true));

$('copy-fixed').addEventListener('click', async () => {
  const text = $('fixed-text').value;
  const status = $('copy-status');
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    $('fixed-text').select();
    status.textContent = 'Selected: copy it with Ctrl+C.';
  }
});

$('undo-fix').addEventListener('click', () => {
  if (!beforeFix) return;
  input.value = beforeFix.text;
  loaded = beforeFix.loaded;
  const bytes = beforeFix.bytes;
  beforeFix = null;
  $('fixed').hidden = true;
  check(bytes);
});

// ?item=N: the corpus viewer's link to its Nth result, which only normalizer view serves.
const item = new URLSearchParams(location.search).get('item');
if (item !== null) {
  if (!/^(0|[1-9]\d{0,15})$/.test(item)) {
    showError(`?item=${item} is not a corpus item number.`);
    finish();
  } else {
    (async () => {
      setBusy(true);
      try {
        const resp = await fetch(`/v1/corpus/items/${item}`);
        if (resp.status === 404) {
          showError(`No corpus item ${item} here: this server has no corpus, or the corpus has no item ${item} (normalizer view FILE|DIR serves one).`);
          finish();
          return;
        }
        if (!resp.ok) {
          showError(`${resp.status} from GET /v1/corpus/items/${item}.`);
          finish();
          return;
        }
        load(new Uint8Array(await resp.arrayBuffer()));
        $('file-name').textContent = `Corpus item ${item}.`;
        form.requestSubmit();
      } catch (err) {
        showError(`The service did not answer: ${err.message}`);
        finish();
      }
    })();
  }
}
