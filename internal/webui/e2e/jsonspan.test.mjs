// Unit tests of the page's JSON scanner (internal/webui/assets/jsonspan.js), with node's own
// test runner and no browser: its answers are those of the plain scans it replaces, and its
// work, counted by its meter (a step per character read, table entry made and probe taken),
// stays within a small multiple of the input's size on a 5 MB result with 500 diagnostics,
// where one scan from the start per diagnostic would read the text 500 times.
//
//	node --test jsonspan.test.mjs
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// The page's module, loaded as the browser loads it: an ES module (a data: URL is one whatever
// the folder's package.json says; it imports nothing).
const source = await readFile(join(here, '..', 'assets', 'jsonspan.js'), 'utf8');
const { Lines, locate, member, parse, offsetOf, lineColumn } = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);

// The plain scans: what the page did before, and what the answers must still be.
function plainLineColumn(text, offset, meter = { steps: 0 }) {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  meter.steps += offset; // indexOf read up to offset; the spread reads the line up to it
  return { line, column: [...text.slice(lineStart, offset)].length + 1 };
}

function plainOffsetOf(text, line, column) {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const k = text.indexOf('\n', start);
    if (k === -1) return -1;
    start = k + 1;
  }
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  let off = start;
  for (let c = 1; c < column && off < end; c++) off += text.codePointAt(off) > 0xffff ? 2 : 1;
  return off;
}

// rand is a seeded generator, so that a failure is the same every run.
function rand(seed) {
  let x = seed >>> 0;
  return (n) => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

const pieces = ['a', 'b', ' ', '\n', '\r\n', '\n\n', '\u00e9', '\u4e2d', '\ud83d\ude00', '\ud800', '\udc00', '\t', '"'];

describe('jsonspan: answers', () => {
  test('Lines.lineColumn is the plain scan\'s at every offset: CRLF, blank lines, pairs, lone surrogates', () => {
    const r = rand(1);
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let k = r(60); k > 0; k--) text += pieces[r(pieces.length)];
      const lines = new Lines(text);
      for (let off = 0; off <= text.length; off++) {
        assert.deepEqual(lines.lineColumn(off), plainLineColumn(text, off), `${JSON.stringify(text)} at ${off}`);
      }
      assert.deepEqual(lineColumn(text, text.length), plainLineColumn(text, text.length));
    }
  });

  test('Lines.offsetOf is the plain scan\'s for every line and column, and -1 past the last line', () => {
    const r = rand(2);
    for (let round = 0; round < 200; round++) {
      let text = '';
      for (let k = r(60); k > 0; k--) text += pieces[r(pieces.length)];
      const lines = new Lines(text);
      const count = text.split('\n').length;
      for (let line = 0; line <= count + 1; line++) {
        for (let column = 0; column <= 70; column++) {
          assert.equal(lines.offsetOf(line, column), plainOffsetOf(text, line, column), `${JSON.stringify(text)} line ${line} column ${column}`);
        }
      }
      assert.equal(offsetOf(text, count + 1, 1), -1);
      // And back: the offset of a place's line and column is the place (not inside a pair).
      for (let off = 0; off <= text.length; off++) {
        const at = lines.lineColumn(off);
        const back = lines.offsetOf(at.line, at.column);
        const insidePair = off > 0 && /[\ud800-\udbff]/.test(text[off - 1]) && /[\udc00-\udfff]/.test(text[off] ?? '');
        if (!insidePair) assert.equal(back, off, `${JSON.stringify(text)} at ${off}`);
      }
    }
  });

  test('member: the last member of a name counts, in a small object and in a large one', () => {
    for (const n of [3, 8, 9, 500]) {
      const keys = Array.from({ length: n }, (_, k) => `k${k % Math.ceil(n / 2)}`); // each name twice
      const text = `{${keys.map((k, v) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`;
      const root = parse(text);
      for (const k of new Set(keys)) {
        assert.equal(member(root, k).value.start, text.lastIndexOf(`"${k}": `) + k.length + 4, `${n} members: ${k}`);
      }
      assert.equal(member(root, 'absent'), undefined);
      const place = locate(root, `/${keys[0]}`);
      assert.equal(place.found, true);
      assert.equal(text.slice(place.start, place.end), `"${keys[0]}": ${keys.lastIndexOf(keys[0])}`);
    }
  });
});

// big is a result of about 5 MB with count messages whose role another API spells (a warning
// each, at /messages/i/role) and a metadata object of many opaque keys, on one line or indented.
function big(count, indent) {
  const filler = 'x'.repeat(9_000) + ' \ud83d\ude00 ';
  const result = {
    final_response: 'done',
    messages: Array.from({ length: count }, (_, i) => ({ role: i % 2 ? 'Assistant' : 'USER', content: `${i} ${filler}` })),
    metadata: Object.fromEntries(Array.from({ length: 20_000 }, (_, k) => [`opaque_${k}`, k])),
  };
  return JSON.stringify(result, null, indent);
}

describe('jsonspan: work is linear in the input', () => {
  for (const [shape, indent] of [['on one line', undefined], ['indented', 2]]) {
    test(`a 5 MB result ${shape}, 500 diagnostics: steps <= 3 x its length`, (t) => {
      const text = big(540, indent);
      assert.ok(text.length > 5_000_000, `${text.length} characters`);
      // 500 places: the messages' roles, back to front, and the first metadata keys (a plain
      // scan of an object's members from the end would read all 20,000 for each).
      const pointers = [];
      for (let i = 539; pointers.length < 450; i--) pointers.push(`/messages/${i}/role`);
      for (let k = 0; pointers.length < 500; k++) pointers.push(`/metadata/opaque_${k}`);
      const meter = { steps: 0 };
      const root = parse(text, meter);
      const lines = new Lines(text, meter);
      const places = pointers.map((p) => {
        const place = locate(root, p, meter);
        assert.equal(place.found, true, p);
        return { place, at: lines.lineColumn(place.start, meter) };
      });
      t.diagnostic(`${meter.steps} steps for ${text.length} characters: ${(meter.steps / text.length).toFixed(2)} a character`);
      assert.ok(meter.steps <= 3 * text.length, `${meter.steps} steps for ${text.length} characters`);
      // The places are right: a sample against the plain scan, whose own work is counted too.
      const plain = { steps: 0 };
      for (const k of [0, 1, 449, 450, 499]) {
        assert.deepEqual(places[k].at, plainLineColumn(text, places[k].place.start, plain), pointers[k]);
        assert.match(text.slice(places[k].place.start, places[k].place.end), k < 450 ? /^"role": ?"(Assistant|USER)"$/ : /^"opaque_\d+": ?\d+$/);
      }
      t.diagnostic(`the plain scan: ${Math.round(plain.steps / 5)} steps a diagnostic, ${Math.round(plain.steps / 5 * 500 / text.length)} x the input for 500`);
    });
  }
});
