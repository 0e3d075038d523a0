// Browser tests of `normalizer view`: the corpus table (/corpus) and the porter's page it links
// to, in Debian's chromium, against the real binary on 127.0.0.1 (a port the kernel picks, read
// from the URL it prints). The corpus is 10,000 results written by internal/tools/genjsonl
// (valid, rejected, with warnings; a seed fixes them), and testdata/golden as a directory.
// scripts/browser-test.sh builds both binaries and runs this file:
//
//	NORMALIZER_BIN=/path/to/normalizer NORMALIZER_GENJSONL=/path/to/genjsonl node --test view.test.mjs
//
// What the table and the page show is compared with what the API answers: GET /v1/corpus for
// the pages and their counts, GET /v1/corpus/items/N and POST /v1/normalize?explain=true for an
// item. Every wait is for a selector, a URL, a response or a page state: nothing sleeps.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as h from './harness.mjs';
import { clean, idle, here, repo } from './harness.mjs';

const genjsonl = process.env.NORMALIZER_GENJSONL;
if (!genjsonl) throw new Error('NORMALIZER_GENJSONL is the genjsonl binary (internal/tools/genjsonl) that writes the corpus');

const lines = 10_000;
let work; // the corpus's directory
let corpus; // its file
let corpusSize;
let jsonl; // normalizer view FILE
let golden; // normalizer view testdata/golden
let browser;
let context;
let axe;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'normalizer-view-'));
  corpus = join(work, 'results.jsonl');
  await promisify(execFile)(genjsonl, ['-lines', String(lines), '-malformed', '-seed', '7', '-o', corpus]);
  corpusSize = (await stat(corpus)).size;
  [jsonl, golden, browser] = await Promise.all([h.view(corpus), h.view(join(repo, 'testdata', 'golden')), h.launch()]);
  context = browser.context;
  axe = await readFile(join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
});

after(async () => {
  await browser?.close();
  await Promise.all([jsonl?.stop(), golden?.stop()]);
  if (work) await rm(work, { recursive: true, force: true });
});

// corpusAPI is GET /v1/corpus with query (an object) of server s.
async function corpusAPI(s, query = {}) {
  const q = new URLSearchParams(query).toString();
  const { status, json } = await h.api(s.base, '/v1/corpus' + (q ? '?' + q : ''));
  assert.equal(status, 200, `GET /v1/corpus?${q}`);
  return json;
}

// rows are the table's rows as the page shows them.
function rows(page) {
  return page.$$eval('#rows tr[data-item]', (trs) => trs.map((tr) => ({
    item: Number(tr.dataset.item),
    label: tr.querySelector('th a').textContent,
    href: tr.querySelector('th a').getAttribute('href'),
    verdict: tr.children[1].textContent,
    class: tr.children[2].textContent,
    warnings: Number(tr.children[3].textContent),
    notes: Number(tr.children[4].textContent),
    codes: [...tr.querySelectorAll('[data-code]')].map((c) => c.dataset.code),
  })));
}

// asRow is an API summary as the table should show it.
function asRow(s) {
  return {
    item: s.item, label: s.name ?? `line ${s.line}`, href: `/?item=${s.item}`, verdict: s.verdict,
    class: s.class ?? '', warnings: s.warnings, notes: s.notes, codes: s.codes,
  };
}

// problems is the number of warnings a record's diagnostics report, as the service counts
// them: those listed, and past the list's cap the N more that one warnings_limited stands for.
function problems(diags) {
  let n = diags.filter((d) => d.severity !== 'note').length;
  for (const d of diags.filter((x) => x.code === 'warnings_limited')) {
    const m = /^(\d+) more warnings? /.exec(d.message);
    assert.ok(m, `warnings_limited says how many: ${d.message}`);
    n += Number(m[1]) - 1;
  }
  return n;
}

// showing is the table's status line for an API page.
function showing(p) {
  const first = p.items.length ? p.offset + 1 : 0;
  const s = `Showing ${first}-${p.offset + p.items.length} of ${p.matching}`;
  return p.matching === p.total ? s : `${s} (of ${p.total} in the corpus)`;
}

// assertTable: the page shows exactly the API's page for query.
async function assertTable(page, s, query) {
  const want = await corpusAPI(s, query);
  assert.equal(await page.textContent('#status'), showing(want));
  assert.deepEqual(await rows(page), want.items.map(asRow));
  return want;
}

// follow clicks selector, which navigates, and waits for the new page to be idle.
async function follow(page, selector, url) {
  await Promise.all([page.waitForURL(url), page.click(selector)]);
  await idle(page);
}

// filter opens the unfiltered table (whose selects offer every choice), sets the form's
// selects (id -> value), applies it and waits for the new page.
async function filter(page, choices) {
  const base = new URL(page.url()).origin;
  await page.goto(`${base}/corpus`);
  await idle(page);
  for (const [id, value] of Object.entries(choices)) await page.selectOption(`#${id}`, value);
  await follow(page, '#filters button[type=submit]', (u) => Object.entries(choices).every(([k, v]) => u.searchParams.get(k) === v));
}

// assertItemPage: the porter's page, opened at /?item=N, shows the verdict and diagnostics
// that POST /v1/normalize?explain=true gives for GET /v1/corpus/items/N's bytes.
async function assertItemPage(page, s, n) {
  await page.waitForSelector('#verdict[data-check="1"]');
  const bytes = (await h.api(s.base, `/v1/corpus/items/${n}`)).bytes;
  const want = (await h.api(s.base, '/v1/normalize?explain=true', bytes)).json;
  assert.equal(await page.textContent('#file-name'), `Corpus item ${n}.`);
  assert.equal(await page.inputValue('#result'), new TextDecoder().decode(bytes));
  if (want.error) {
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'rejected', `item ${n}`);
    assert.equal(await page.textContent('#rejection-message'), want.error.message, `item ${n}`);
    return want;
  }
  assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted', `item ${n}`);
  const diags = want.diagnostics ?? [];
  assert.deepEqual(await h.pageDiagnostics(page), diags.map((d) => [d.code, d.pointer]), `item ${n}`);
  const warnings = diags.filter((d) => d.severity !== 'note').length;
  assert.match(await page.textContent('#verdict .counts'), new RegExp(`^${warnings} warnings?, ${diags.length - warnings} notes?\\.$`));
  return want;
}

describe('normalizer view FILE: 10,000 results', () => {
  test('the first page: its rows and "showing a-b of n" are GET /v1/corpus\'s', async () => {
    const { page, trouble } = await h.open(context, jsonl.base, '/corpus');
    const want = await assertTable(page, jsonl, {});
    assert.equal(want.total, lines);
    assert.equal(want.items.length, 50);
    assert.equal(await page.textContent('#status'), `Showing 1-50 of ${lines}`);
    assert.equal(await page.getAttribute('#prev', 'aria-disabled'), 'true');
    // The corpus has every sort of result the generator writes.
    assert.ok(want.by_verdict.accepted > 0 && want.by_verdict.rejected > 0, JSON.stringify(want.by_verdict));
    assert.ok(want.by_class.InvalidJSON > 0 && want.by_class.ResponseShapeError > 0, JSON.stringify(want.by_class));
    assert.ok(Object.keys(want.by_code).length >= 5, JSON.stringify(want.by_code));
    await clean(page, trouble);
    await page.close();
  });

  test('next and previous pages, and the last page', async () => {
    const { page, trouble } = await h.open(context, jsonl.base, '/corpus');
    await follow(page, '#next', (u) => u.searchParams.get('offset') === '50');
    assert.equal((await assertTable(page, jsonl, { offset: 50 })).items[0].item, 50);
    await follow(page, '#next', (u) => u.searchParams.get('offset') === '100');
    await assertTable(page, jsonl, { offset: 100 });
    await follow(page, '#prev', (u) => u.searchParams.get('offset') === '50');
    await assertTable(page, jsonl, { offset: 50 });
    await follow(page, '#prev', (u) => u.searchParams.get('offset') === '0');
    await assertTable(page, jsonl, {});
    // 200 a page, then the last one: next is off.
    await page.selectOption('#limit', '200');
    await follow(page, '#filters button[type=submit]', (u) => u.searchParams.get('limit') === '200');
    await assertTable(page, jsonl, { limit: 200 });
    await page.goto(`${jsonl.base}/corpus?limit=200&offset=${lines - 200}`);
    await idle(page);
    const last = await assertTable(page, jsonl, { limit: 200, offset: lines - 200 });
    assert.equal(last.items.at(-1).item, lines - 1);
    assert.equal(await page.getAttribute('#next', 'aria-disabled'), 'true');
    assert.equal(await page.getAttribute('#next', 'href'), null);
    await follow(page, '#prev', (u) => u.searchParams.get('offset') === String(lines - 400));
    await assertTable(page, jsonl, { limit: 200, offset: lines - 400 });
    await clean(page, trouble);
    await page.close();
  });

  test('filters by code, by class and by verdict: matching rows, the API\'s counts', async () => {
    const all = await corpusAPI(jsonl);
    const codes = Object.entries(all.by_code).sort((a, b) => b[1] - a[1]);
    const { page, trouble } = await h.open(context, jsonl.base, '/corpus');
    // The most common code and the rarest.
    for (const [code, n] of [codes[0], codes.at(-1)]) {
      await filter(page, { code, class: '', verdict: '' });
      const want = await assertTable(page, jsonl, { code });
      assert.equal(want.matching, n, `${code}: the count by_code gave`);
      assert.ok((await rows(page)).every((r) => r.codes.includes(code)), `every row has ${code}`);
      // The page's own choice of the code counts the same.
      assert.equal(await page.$eval('#code', (s) => s.selectedOptions[0].textContent), `${code} (${n})`);
    }
    for (const [cls, n] of Object.entries(all.by_class)) {
      await filter(page, { code: '', class: cls, verdict: '' });
      const want = await assertTable(page, jsonl, { class: cls });
      assert.equal(want.matching, n, `${cls}: the count by_class gave`);
      assert.ok((await rows(page)).every((r) => r.class === cls && r.verdict === 'rejected'), `every row is ${cls}`);
    }
    await filter(page, { code: '', class: '', verdict: 'rejected' });
    assert.equal((await assertTable(page, jsonl, { verdict: 'rejected' })).matching, all.by_verdict.rejected);
    assert.ok((await rows(page)).every((r) => r.verdict === 'rejected'));
    // A code and a verdict at once; a code chip is a link to its filter.
    await filter(page, { code: codes[0][0], class: '', verdict: 'accepted' });
    await assertTable(page, jsonl, { code: codes[0][0], verdict: 'accepted' });
    await page.goto(`${jsonl.base}/corpus`);
    await idle(page);
    const chip = (await rows(page)).find((r) => r.codes.length > 0);
    assert.ok(chip, 'the first page has a row with a code');
    await follow(page, `#rows tr[data-item="${chip.item}"] [data-code="${chip.codes[0]}"]`, (u) => u.searchParams.get('code') === chip.codes[0]);
    assert.equal((await assertTable(page, jsonl, { code: chip.codes[0] })).matching, all.by_code[chip.codes[0]]);
    await clean(page, trouble);
    await page.close();
  });

  test('a row opens /?item=N: the item\'s verdict and warnings are the API\'s', async () => {
    const { page, trouble } = await h.open(context, jsonl.base, '/corpus');
    const all = await corpusAPI(jsonl);
    const code = Object.entries(all.by_code).sort((a, b) => b[1] - a[1])[0][0];
    // A result with warnings, reached through its code's filter, and a rejected one of each class.
    const picks = [{ code }, ...Object.keys(all.by_class).map((cls) => ({ class: cls }))];
    for (const query of picks) {
      await page.goto(`${jsonl.base}/corpus?${new URLSearchParams({ ...query, offset: 50 })}`);
      await idle(page);
      const [first] = (await corpusAPI(jsonl, { ...query, offset: 50 })).items;
      await Promise.all([page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('item') === String(first.item)),
        page.click(`#rows tr[data-item="${first.item}"] th a`)]);
      const want = await assertItemPage(page, jsonl, first.item);
      if (query.code) {
        assert.ok(want.diagnostics.some((d) => d.code === code), `item ${first.item} has a ${code}`);
        assert.equal(problems(want.diagnostics), first.warnings);
      } else {
        assert.equal(want.error.class, query.class);
      }
    }
    await clean(page, trouble);
    await page.close();
  });

  test('the page never fetches the whole file: what it receives, counted, is far below its size', async (t) => {
    const page = await context.newPage();
    const trouble = await h.watch(page, jsonl.base);
    const received = [];
    const pending = [];
    page.on('response', (r) => pending.push(r.body().then((b) => received.push([r.url(), b.length]))));
    const settle = () => Promise.all(pending.splice(0));
    await page.goto(`${jsonl.base}/corpus`);
    await idle(page);
    await settle();
    await follow(page, '#next', (u) => u.searchParams.get('offset') === '50');
    await settle();
    await filter(page, { code: '', class: '', verdict: '', limit: '200' });
    await settle();
    await follow(page, '#next', (u) => u.searchParams.get('offset') === '200');
    await settle();
    const all = await corpusAPI(jsonl);
    await filter(page, { code: Object.keys(all.by_code)[0], class: '', verdict: '', limit: '200' });
    await settle();
    const [first] = await rows(page);
    await Promise.all([page.waitForURL((u) => u.searchParams.get('item') === String(first.item)), page.click(`#rows tr[data-item="${first.item}"] th a`)]);
    await page.waitForSelector('#verdict[data-check="1"]');
    await settle();
    const total = received.reduce((n, [, b]) => n + b, 0);
    t.diagnostic(`received ${total} bytes in ${received.length} responses; the file has ${corpusSize}`);
    assert.ok(received.some(([u]) => u.includes(`/v1/corpus/items/${first.item}`)), 'the item was fetched');
    assert.ok(received.filter(([u]) => u.includes('/v1/corpus?')).length >= 5, 'each page of the table was fetched');
    assert.ok(total * 20 < corpusSize, `the page received ${total} bytes in ${received.length} responses; the file has ${corpusSize}`);
    await clean(page, trouble);
    await page.close();
  });

  test('keyboard only: a filter, the next page and a row, by Tab and Enter', async () => {
    const { page, trouble } = await h.open(context, jsonl.base, '/corpus');
    const active = () => page.evaluate(() => {
      const a = document.activeElement;
      return { id: a.id, tag: a.tagName, item: a.closest('tr[data-item]')?.dataset.item ?? null, header: a.closest('th') !== null, outline: getComputedStyle(a).outlineStyle };
    });
    const tabTo = async (want, what) => {
      for (let k = 0; k < 40; k++) {
        await page.keyboard.press('Tab');
        const a = await active();
        if (want(a)) return a;
      }
      throw new Error(`Tab does not reach ${what}`);
    };
    await tabTo((a) => a.id === 'class', 'the class filter');
    await page.keyboard.press('ArrowDown'); // the first class, the most common
    const cls = await page.inputValue('#class');
    assert.notEqual(cls, '', 'the arrow key chose a class');
    const submit = await tabTo((a) => a.tag === 'BUTTON', 'Apply');
    assert.notEqual(submit.outline, 'none', 'the focused button shows its focus');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('class') === cls), page.keyboard.press('Enter')]);
    await idle(page);
    await assertTable(page, jsonl, { class: cls });
    const next = await tabTo((a) => a.id === 'next', 'Next page');
    assert.notEqual(next.outline, 'none', 'the focused link shows its focus');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('offset') === '50'), page.keyboard.press('Enter')]);
    await idle(page);
    const want = await assertTable(page, jsonl, { class: cls, offset: 50 });
    const row = await tabTo((a) => a.item !== null && a.header, 'a row\'s link');
    assert.equal(Number(row.item), want.items[0].item, 'the first row is the first reached');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('item') === row.item), page.keyboard.press('Enter')]);
    assert.equal((await assertItemPage(page, jsonl, Number(row.item))).error.class, cls);
    await clean(page, trouble);
    await page.close();
  });

  test('axe-core finds no serious or critical violation on /corpus', async () => {
    const all = await corpusAPI(jsonl);
    const code = Object.keys(all.by_code)[0];
    // A full page whose rows have codes, and a page with no row.
    for (const path of [`/corpus?code=${code}&offset=50`, '/corpus?class=InvalidJSON&verdict=accepted']) {
      const { page, trouble } = await h.open(context, jsonl.base, path);
      assert.deepEqual(await h.axeViolations(page, axe), [], `${path}: axe-core's serious and critical violations`);
      await clean(page, trouble);
      await page.close();
    }
  });
});

describe('normalizer view DIR: testdata/golden', () => {
  test('every case is a row whose verdict, class and codes are the API\'s for its input', async () => {
    const { page, trouble } = await h.open(context, golden.base, '/corpus?limit=200');
    const want = await assertTable(page, golden, { limit: 200 });
    assert.equal(want.kind, 'golden');
    assert.ok(want.total > 100 && want.total <= 200, `one page holds the golden corpus: ${want.total}`);
    assert.equal(want.items.length, want.total);
    assert.equal(await page.textContent('#kind'), 'A golden directory: one result per case.');
    for (const row of await rows(page)) {
      const bytes = await readFile(join(repo, 'testdata', 'golden', `${row.label}.input.json`));
      assert.deepEqual((await h.api(golden.base, `/v1/corpus/items/${row.item}`)).bytes, bytes, row.label);
      const got = (await h.api(golden.base, '/v1/normalize?explain=true', bytes)).json;
      const diags = got.diagnostics ?? [];
      assert.deepEqual(
        { verdict: row.verdict, class: row.class, codes: row.codes, warnings: row.warnings, notes: row.notes },
        got.error
          ? { verdict: 'rejected', class: got.error.class, codes: [], warnings: 0, notes: 0 }
          : {
            verdict: 'accepted', class: '', codes: [...new Set(diags.map((d) => d.code))].sort(),
            warnings: problems(diags), notes: diags.filter((d) => d.severity === 'note').length,
          },
        row.label);
    }
    // A case with warnings and a rejected one, opened from the table.
    const rowsNow = await rows(page);
    for (const row of [rowsNow.find((r) => r.warnings > 0), rowsNow.find((r) => r.verdict === 'rejected')]) {
      assert.ok(row, 'the golden corpus has a case with warnings and a rejected one');
      await Promise.all([page.waitForURL((u) => u.searchParams.get('item') === String(row.item)), page.click(`#rows tr[data-item="${row.item}"] th a`)]);
      await assertItemPage(page, golden, row.item);
      await page.goBack();
      await idle(page);
    }
    assert.deepEqual(await h.axeViolations(page, axe), [], 'axe-core\'s serious and critical violations');
    await clean(page, trouble);
    await page.close();
  });
});
