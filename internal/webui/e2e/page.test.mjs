// Browser tests of the porter's page: Debian's chromium, driven by playwright-core, against
// the real `normalizer serve` on 127.0.0.1 (a port the kernel picks, read from its "listening"
// line). scripts/browser-test.sh builds the binary and runs this file:
//
//	NORMALIZER_BIN=/path/to/normalizer node --test page.test.mjs
//
// NORMALIZER_SCREENSHOTS=DIR also writes the page at a laptop's and a phone's size into DIR.
// Every wait is for a selector, a response or a page state: nothing sleeps.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as h from './harness.mjs';
import { check, clean, here, repo } from './harness.mjs';

const shots = process.env.NORMALIZER_SCREENSHOTS;

let server; // normalizer serve
let base; // http://127.0.0.1:PORT
let browser; // chromium
let context;

before(async () => {
  server = await h.serve();
  base = server.base;
  browser = await h.launch();
  context = browser.context;
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// api POSTs body to the service as the page does.
const api = (path, body) => h.api(base, path, body);

// open loads the page with every console error, page error, dialog and CSP violation
// recorded; the caller asserts the record is empty.
const open = (path = '/') => h.open(context, base, path);

// The contract's own rich-mode example.
const contractExample = {
  final_response: 'The refund has been issued.',
  messages: [
    { role: 'user', content: 'Refund order #4521...' },
    { role: 'assistant', tool_calls: [{ id: 'c1', name: 'get_order', arguments: { order_id: '4521' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '{"status":"shipped"}' },
    { role: 'assistant', content: 'The refund has been issued.' },
  ],
  metadata: { model: 'claude-sonnet-4-5', system_prompt_id: 'refund-v3', total_input_tokens: 1842, total_output_tokens: 217, agent_runtime_ms: 4815 },
};

// A result with something for every part of the page: a message in another case of role, a
// count sent as a string, an unanswered call, an orphan answer, thinking, content parts,
// Anthropic's tool_use_id, an opaque metadata key, a number written as 2.50.
const rich = `{
  "final_response": "The refund has been issued.",
  "messages": [
    {"role": "system", "content": "You are a refunds agent."},
    {"role": "user", "content": [{"type": "text", "text": "Refund order #4521"}, {"type": "image_url", "image_url": {"url": "https://example.invalid/a.png"}}]},
    {"role": "assistant", "thinking": [{"type": "thinking", "thinking": "Look the order up first."}], "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_order", "arguments": "{\\"order_id\\": \\"4521\\"}"}}, {"id": "c2", "name": "refund", "arguments": {"amount": 2.50}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "{\\"status\\":\\"shipped\\"}"},
    {"role": "tool", "tool_call_id": "c9", "content": "late"},
    {"role": "Assistant", "content": "Checking."},
    {"role": "tool", "tool_use_id": "c2", "content": "refunded"},
    {"role": "assistant", "content": "The refund has been issued."}
  ],
  "metadata": {"model": "claude-sonnet-4-5", "total_input_tokens": "1842", "total_output_tokens": 217, "trace_id": "t-1", "cost": 2.50}
}
`;

// bigResult is a result of 5 MB on one line: 1,000 messages of 5,000 characters and a surrogate
// pair each, every other one's role "Assistant" (a warning, the message dropped), and 2,000
// opaque metadata keys. With load, it runs in the page: it opens the result there as the file
// big.json and returns its length; without, it returns the text.
function bigResult(load) {
  const filler = 'x'.repeat(5_000) + ' \ud83d\ude00 ';
  const text = JSON.stringify({
    final_response: 'done',
    messages: Array.from({ length: 1000 }, (_, i) => ({ role: i % 2 ? 'user' : 'Assistant', content: `${i} ${filler}` })),
    metadata: Object.fromEntries(Array.from({ length: 2_000 }, (_, k) => [`opaque_${k}`, k])),
  });
  if (!load) return text;
  const input = document.getElementById('file');
  const files = new DataTransfer();
  files.items.add(new File([text], 'big.json', { type: 'application/json' }));
  input.files = files.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return text.length;
}

describe('the porter\'s page', () => {
  test('the contract\'s rich example: accepted, its 4 messages in the trace', async () => {
    const { page, trouble } = await open();
    await check(page, JSON.stringify(contractExample, null, 2));
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted');
    const roles = await page.$$eval('#trace [data-role]', (els) => els.map((e) => [Number(e.dataset.index), e.dataset.role]).sort((a, b) => a[0] - b[0]));
    assert.deepEqual(roles, contractExample.messages.map((m, i) => [i, m.role]));
    // The tool message is beside the call it answers.
    assert.equal(await page.locator('.call[data-tool-call-id="c1"] .answer-side [data-role="tool"]').count(), 1);
    assert.equal(await page.locator('.call.unanswered').count(), 0);
    assert.match(await page.textContent('#final'), /The refund has been issued\./);
    assert.deepEqual(await page.$$eval('#metadata-recognised dt', (els) => els.map((e) => e.textContent)),
      ['model', 'system_prompt_id', 'total_input_tokens', 'total_output_tokens', 'agent_runtime_ms']);
    await clean(page, trouble);
    await page.close();
  });

  test('a rich result: trace, metadata and diagnostics are the API\'s', async () => {
    const { page, trouble } = await open();
    await check(page, rich);
    const want = (await api('/v1/normalize?explain=true', rich)).json;
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted');
    const roles = await page.$$eval('#trace [data-role]', (els) => els.map((e) => [Number(e.dataset.index), e.dataset.role]).sort((a, b) => a[0] - b[0]));
    assert.deepEqual(roles, want.messages.map((m, i) => [i, m.role]));
    const diags = await page.$$eval('#diagnostics [data-code]', (els) => els.map((e) => [e.dataset.code, e.dataset.pointer]));
    assert.deepEqual(diags, want.diagnostics.map((d) => [d.code, d.pointer]));
    assert.ok(diags.length >= 4, `the result has warnings and notes: ${JSON.stringify(diags)}`);
    // The unanswered call and the orphan answer are marked; thinking is folded.
    assert.equal(await page.locator('.call.unanswered[data-tool-call-id="c2"]').count(), 1);
    assert.ok(await page.locator('.msg.orphan[data-role="tool"]').count() >= 1);
    assert.equal(await page.locator('details.thinking:not([open])').count(), 1);
    // Metadata: recognised keys apart from opaque ones, values as written.
    assert.deepEqual(await page.$$eval('#metadata-recognised dt', (els) => els.map((e) => e.textContent)), ['model', 'total_output_tokens']);
    assert.deepEqual(await page.$$eval('#metadata-opaque dd', (els) => els.map((e) => e.textContent)), ['"t-1"', '2.50']);
    // Focusing a diagnostic marks its place in the input: the member its pointer names.
    await page.focus('#diagnostics [data-pointer="/messages/5/role"] button');
    assert.equal(await page.textContent('#source-mark'), '"role": "Assistant"');
    await page.click('#diagnostics [data-pointer="/metadata/total_input_tokens"] button');
    assert.equal(await page.textContent('#source-mark'), '"total_input_tokens": "1842"');
    assert.match(await page.textContent('#diagnostics [data-pointer="/metadata/total_input_tokens"]'), /Found"1842" \(a string\)/);
    await clean(page, trouble);
    await page.close();
  });

  test('a rejected result: the message with its line and column', async () => {
    const { page, trouble } = await open();
    const bad = '{\n  "final_response": "ok",\n  "messages": [,]\n}';
    await check(page, bad);
    const want = (await api('/v1/normalize?explain=true', bad)).json.error;
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'rejected');
    assert.equal(await page.textContent('#rejection-message'), want.message);
    assert.match(await page.textContent('#rejection-location'), new RegExp(`line ${want.line}, column ${want.column}`));
    assert.equal(await page.locator('#results').isHidden(), true);
    await page.click('#goto-error');
    const caret = await page.$eval('#result', (t) => [document.activeElement === t, t.selectionStart]);
    assert.deepEqual(caret, [true, bad.indexOf(',]')]);
    // A shape error names its path.
    await check(page, '{"output": "x"}');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'rejected');
    assert.match(await page.textContent('#rejection-message'), /final_response/);
    await clean(page, trouble);
    await page.close();
  });

  for (const unsafe of [false, true]) {
    test(`${unsafe ? 'apply all fixes' : 'apply safe fixes'}: the bytes of POST /v1/fix, checked again`, async () => {
      const { page, trouble } = await open();
      await check(page, rich);
      const want = await api(`/v1/fix${unsafe ? '?unsafe=true' : ''}`, rich);
      assert.equal(want.status, 200);
      const n = Number(await page.getAttribute('#verdict', 'data-check'));
      await page.click(unsafe ? '#apply-all' : '#apply-safe');
      await page.waitForSelector(`#verdict[data-check="${n + 1}"]`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-fixed')]);
      assert.equal(download.suggestedFilename(), 'result.fixed.json');
      assert.deepEqual(await readFile(await download.path()), want.bytes, 'the download is the bytes POST /v1/fix answers');
      assert.equal(await page.inputValue('#fixed-text'), want.bytes.toString('utf8'));
      assert.equal(await page.inputValue('#result'), want.bytes.toString('utf8'), 'the fixed result is in the form');
      // Normalized again on the spot: the page's diagnostics are the fixed result's.
      const again = (await api('/v1/normalize?explain=true', want.bytes)).json;
      const diags = await page.$$eval('#diagnostics [data-code]', (els) => els.map((e) => e.dataset.code));
      assert.deepEqual(diags, again.diagnostics.map((d) => d.code));
      const before = (await api('/v1/normalize?explain=true', rich)).json.diagnostics;
      const gone = before.filter((d) => d.fix?.patch && (unsafe || d.fix.applicability === 'safe')).map((d) => d.code);
      assert.ok(gone.length > 0);
      for (const code of new Set(gone)) {
        assert.ok(again.diagnostics.filter((d) => d.code === code).length < before.filter((d) => d.code === code).length, `a ${code} went`);
      }
      const diff = await page.textContent('#fixed-diff');
      assert.equal(diff, (await api(`/v1/fix?${unsafe ? 'unsafe=true&' : ''}diff=true`, rich)).bytes.toString('utf8'));
      await page.click('#undo-fix');
      await page.waitForSelector(`#verdict[data-check="${n + 2}"]`);
      assert.equal(await page.inputValue('#result'), rich);
      await clean(page, trouble);
      await page.close();
    });
  }

  test('hostile text shows as text and runs nothing', async () => {
    const { page, trouble } = await open();
    const script = '<script>window.__pwned = 1; alert(1)</script>';
    const img = '<img src=x onerror="window.__pwned = 1; alert(2)">';
    const link = '<a href="javascript:window.__pwned=1;alert(3)">click</a> [md](javascript:alert(4)) javascript:alert(5)';
    const hostile = {
      final_response: `${script} ${img} ${link}`,
      messages: [
        { role: 'user', content: [{ type: 'text', text: img }, { type: 'image_url', image_url: { url: 'javascript:alert(6)' } }] },
        { role: 'assistant', content: link, thinking: [{ type: 'thinking', thinking: script }], tool_calls: [{ id: '<b>id</b>', name: img, arguments: { html: script } }] },
        { role: 'tool', tool_call_id: '<b>id</b>', content: script, [img]: link },
        { role: '<script>alert(7)</script>', content: 'x' },
        { role: 'User', content: script },
      ],
      metadata: { model: script, [script]: img, [`javascript:alert(8)`]: link },
      [img]: 'unknown top-level key',
    };
    const text = JSON.stringify(hostile, null, 1);
    await check(page, text);
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted');
    assert.equal(await page.locator('#results script, #results img, #results a:not(#download-fixed), #results iframe, #verdict script, #verdict img').count(), 0,
      'the result made no element');
    assert.ok((await page.textContent('#final')).includes(`${script} ${img} ${link}`), 'final_response is shown as its text');
    assert.ok((await page.textContent('#trace')).includes(script));
    assert.ok((await page.textContent('#metadata')).includes(JSON.stringify(img)), 'an opaque value is shown as written');
    assert.ok((await page.textContent('#metadata')).includes(script), 'a key is shown as its text');
    // Every diagnostic's place, marked in turn, is text too.
    for (const button of await page.$$('#diagnostics button.locate')) await button.click();
    await page.click('#apply-all');
    await page.waitForSelector('#verdict[data-check="2"]');
    assert.equal(await page.locator('#results script, #results img, #results a[href^="javascript"]').count(), 0);
    await check(page, `{"final_response": ${JSON.stringify(img)}, "messages": [,]}`); // rejected: the excerpt
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'rejected');
    assert.equal(await page.locator('#verdict img, #verdict script').count(), 0);
    await clean(page, trouble);
    await page.close();
  });

  test('keyboard only: tab to the box, type, submit with Enter, reach a diagnostic', async () => {
    const { page, trouble } = await open();
    const order = [];
    for (let k = 0; k < 8; k++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.tagName));
      if (order.at(-1) === 'result') break;
    }
    assert.equal(order.at(-1), 'result', `tab order reaches the box: ${order}`);
    await page.keyboard.insertText('{"final_response": "ok", "messages": [{"role": "Assistant", "content": "hi"}]}');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'submit');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused button shows its focus');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#verdict[data-check="1"]');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted');
    // Ctrl+Enter in the box checks it too.
    await page.focus('#result');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('#verdict[data-check="2"]');
    // Tab on until a diagnostic has focus: its place is marked.
    let reached = false;
    for (let k = 0; k < 40 && !reached; k++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement.closest('[data-code]') !== null && document.activeElement.closest('#diagnostics') !== null);
    }
    assert.ok(reached, 'a diagnostic is reachable by Tab');
    assert.equal(await page.textContent('#source-mark'), '"role": "Assistant"');
    // And on to the fix buttons; Enter applies.
    reached = false;
    for (let k = 0; k < 40 && !reached; k++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement.id === 'apply-safe');
    }
    assert.ok(reached, 'Apply safe fixes is reachable by Tab');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#verdict[data-check="3"]');
    assert.equal(await page.locator('#diagnostics [data-code="message_role_invalid"]').count(), 0, 'the warning went');
    await clean(page, trouble);
    await page.close();
  });

  test('a file opened keeps its bytes (CRLF)', async () => {
    const { page, trouble } = await open();
    const bytes = Buffer.from('{"final_response": "two\\r\\nlines",\r\n "messages": [{"role": "user", "content": "hi"}]}\r\n');
    const sent = page.waitForRequest((r) => r.url().endsWith('/v1/normalize?explain=true'));
    await page.setInputFiles('#file', { name: 'result.json', mimeType: 'application/json', buffer: bytes });
    assert.deepEqual((await sent).postDataBuffer(), bytes);
    await page.waitForSelector('#verdict[data-check="1"]');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted');
    await clean(page, trouble);
    await page.close();
  });

  test('?item=N fills the form from the corpus, and serve has none', async () => {
    const { page, trouble } = await open('/?item=7');
    await page.waitForSelector('#verdict[data-check="1"]');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'error');
    assert.match(await page.textContent('#verdict'), /No corpus item 7/);
    await clean(page, trouble);
    await page.close();
    const viewed = await context.newPage();
    await viewed.route('**/v1/corpus/items/3', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: JSON.stringify(contractExample) }));
    await viewed.goto(`${base}/?item=3`);
    await viewed.waitForSelector('#verdict[data-check="1"]');
    assert.equal(await viewed.getAttribute('#verdict', 'data-verdict'), 'accepted');
    assert.equal(await viewed.inputValue('#result'), JSON.stringify(contractExample));
    assert.equal(await viewed.locator('#trace [data-role]').count(), 4);
    await viewed.close();
  });

  test('axe-core finds no serious or critical violation', async () => {
    const axe = await readFile(join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    const { page, trouble } = await open();
    const states = [
      ['empty', null],
      ['accepted', rich],
      ['rejected', '{"final_response": '],
    ];
    for (const [name, text] of states) {
      if (text !== null) await check(page, text);
      if (name === 'accepted') {
        const n = Number(await page.getAttribute('#verdict', 'data-check'));
        await page.click('#apply-all');
        await page.waitForSelector(`#verdict[data-check="${n + 1}"]`);
        await page.click('details.thinking summary').catch(() => {});
      }
      await page.evaluate(axe); // evaluated by the driver, not as a script of the page: the CSP stays
      const found = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(found, [], `${name}: axe-core's serious and critical violations`);
    }
    await clean(page, trouble);
    await page.close();
  });

  // Every case of testdata/explain, each diagnostic's place marked in turn; and every case of
  // the golden corpus, inputs the page was not written for (a body at the depth limit, 50,001
  // characters of final_response, a thousand warnings and the one that stands for the rest).
  for (const [corpus, least, locate] of [['explain', 40, true], ['golden', 150, false]]) {
    test(`every case of testdata/${corpus}: its verdict and diagnostics on the page are the API's`, async (t) => {
      const dir = join(repo, 'testdata', corpus);
      const names = (await readdir(dir, { recursive: true })).filter((n) => n.endsWith('.input.json')).sort();
      assert.ok(names.length > least, `${names.length} cases`);
      const { page, trouble } = await open();
      const verdicts = { accepted: 0, rejected: 0 };
      for (const name of names) {
        const bytes = await readFile(join(dir, name));
        const [want] = await Promise.all([api('/v1/normalize?explain=true', bytes), h.loadFile(page, name, bytes)]);
        const got = await h.pageState(page);
        verdicts[got.verdict]++;
        if (want.json.error) {
          assert.equal(got.verdict, 'rejected', name);
          assert.equal(got.rejection, want.json.error.message, name);
          const a = want.json.error.advice;
          assert.deepEqual(got.advice, a ? [[a.code, a.pointer]] : [], name);
          continue;
        }
        assert.equal(got.verdict, 'accepted', name);
        assert.deepEqual(got.diagnostics, (want.json.diagnostics ?? []).map((d) => [d.code, d.pointer]), name);
        assert.deepEqual(got.roles, (want.json.messages ?? []).map((m, i) => [i, m.role]), name);
        if (locate) for (const button of await page.$$('#diagnostics button.locate')) await button.focus();
      }
      assert.ok(verdicts.accepted > 0 && verdicts.rejected > 0, JSON.stringify(verdicts));
      t.diagnostic(`${names.length} cases: ${JSON.stringify(verdicts)}`);
      await clean(page, trouble);
      await page.close();
    });
  }

  // Every other message's role is another API's spelling: 500 warnings, 500 messages kept.
  // The page makes the file itself (bigResult runs there too), so that 5 MB do not cross the
  // driver's connection.
  test('a 5 MB result on one line with 500 warnings and 2,000 metadata keys renders', async (t) => {
    const bytes = Buffer.from(bigResult(false));
    assert.ok(bytes.length > 5_000_000, `${bytes.length} bytes`);
    const want = (await api('/v1/normalize?explain=true', bytes)).json;
    assert.ok(want.diagnostics.filter((d) => d.code === 'message_role_invalid').length >= 500, 'a warning a message');
    const { page, trouble } = await open();
    // Chromium lays out 5 MB of text in the box and in the source view: seconds on a busy
    // machine, so the wait for the check has a bound well past playwright's 30 s default.
    await page.evaluate(bigResult, true);
    await page.waitForSelector('#verdict[data-check="1"]', { timeout: 300_000 });
    assert.equal(await page.textContent('#file-name'), `Loaded big.json (${bytes.length.toLocaleString('en')} bytes).`);
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), 'accepted');
    assert.deepEqual(await h.pageDiagnostics(page), want.diagnostics.map((d) => [d.code, d.pointer]));
    assert.equal(want.messages.length, 500);
    assert.equal(await page.locator('#trace [data-role]').count(), 500);
    assert.equal(await page.locator('#metadata-opaque dt').count(), 2_000);
    // The last message's role: its place and its column, counted in code points.
    const last = want.diagnostics.findLast((d) => d.pointer.startsWith('/messages/') && d.pointer.endsWith('/role'));
    const item = page.locator(`#diagnostics [data-pointer="${last.pointer}"]`).first();
    await item.locator('button').click();
    assert.equal(await page.textContent('#source-mark'), '"role":"Assistant"');
    // The source view shows a window around the place, not the whole input.
    const shown = await page.$eval('#source', (e) => e.textContent);
    assert.ok(shown.length < 110_000, `the source view holds ${shown.length} characters`);
    assert.match(shown, /^… 5,0\d\d,\d{3} more characters before\n/);
    const text = bytes.toString('utf8');
    const n = last.pointer.split('/')[2];
    const at = text.indexOf(`{"role":"Assistant","content":"${n} `) + 1; // the member, after the brace
    assert.ok(at > 0);
    const column = [...text.slice(0, at)].length + 1;
    assert.match(await item.textContent(), new RegExp(`line 1, column ${column}(?!\\d)`));
    t.diagnostic(`${bytes.length} bytes, ${want.diagnostics.length} diagnostics`);
    await clean(page, trouble);
    await page.close();
  });

  test('screenshots for the docs', { skip: !shots && 'NORMALIZER_SCREENSHOTS is not set' }, async () => {
    for (const [file, viewport] of [['page.png', { width: 1280, height: 1000 }], ['page-phone.png', { width: 390, height: 844 }]]) {
      const { page, trouble } = await open();
      await page.setViewportSize(viewport);
      await check(page, rich);
      await page.focus('#diagnostics [data-pointer="/messages/5/role"] button');
      await page.evaluate(() => { document.activeElement.blur(); window.scrollTo(0, 0); });
      await page.screenshot({ path: join(shots, file), fullPage: false });
      await clean(page, trouble);
      await page.close();
    }
  });
});
