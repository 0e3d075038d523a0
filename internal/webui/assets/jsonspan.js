// A JSON parser that keeps where each value is in the text: what the page needs to mark the
// place a diagnostic's pointer names, and to show a value as it was written (numbers, key order
// and escapes verbatim), which JSON.parse loses. Offsets are in UTF-16 code units of the text,
// as a textarea and String.slice count them.
//
// A node is {kind, start, end} with kind one of object, array, string, number, true, false,
// null; an object has members [{key, keyStart, value}] in the text's order (a duplicate key's
// last member is the one that counts, as in the platform's parser), an array items [node], a
// string its decoded value.
//
// Work is linear in the text: parse reads each character once; member looks a key up in a table
// built once per object (a small object is scanned); Lines builds the table of line starts and
// of surrogate pairs in one pass, and answers each line and column by binary search. A page
// with many diagnostics on a large input so does the whole text's work a few times, not once per
// diagnostic. Every function that scans takes an optional meter, {steps: 0}, to which it adds
// one for each character read, table entry made and probe taken: the unit tests count work with
// it (internal/webui/e2e/jsonspan.test.mjs).

export class JSONSpanError extends Error {
  constructor(message, offset) {
    super(message);
    this.offset = offset;
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);

export function parse(text, meter) {
  let i = 0;
  let steps = 0;
  const fail = (what) => { throw new JSONSpanError(`${what} at offset ${i}`, i); };
  const ws = () => { while (i < text.length && WS.has(text[i])) { i++; steps++; } };

  function str() {
    const start = i;
    i++; // the opening quote
    let out = '';
    let run = i;
    for (;;) {
      steps++;
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        out += text.slice(run, i);
        const e = text[i + 1];
        const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          fail('bad escape');
        }
        run = i;
        continue;
      }
      if (c < 0x20) fail('control character in a string');
      i++;
    }
    out += text.slice(run, i);
    i++; // the closing quote
    return { kind: 'string', start, end: i, value: out };
  }

  function value() {
    ws();
    steps++;
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', start, end: i, members };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = str();
        ws();
        if (text[i] !== ':') fail('expected a colon');
        i++;
        members.push({ key: key.value, keyStart: key.start, value: value() });
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; break; }
        fail('expected , or }');
      }
      return { kind: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      const items = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', start, end: i, items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; break; }
        fail('expected , or ]');
      }
      return { kind: 'array', start, end: i, items };
    }
    if (c === '"') return str();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { kind: word, start, end: i };
      }
    }
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = i;
    if (m.exec(text) && m.lastIndex > i) {
      steps += m.lastIndex - i;
      i = m.lastIndex;
      return { kind: 'number', start, end: i };
    }
    return fail('expected a value');
  }

  try {
    const root = value();
    ws();
    if (i !== text.length) fail('text after the value');
    return root;
  } finally {
    if (meter) meter.steps += steps;
  }
}

// An object with more members than this has a table of them by key, made at its first lookup.
const SCANNED = 8;
const byKey = new WeakMap(); // object node -> Map key -> the member that counts

// member is the member of object node obj named key that counts (the last of that name).
export function member(obj, key, meter) {
  if (!obj || obj.kind !== 'object') return undefined;
  const ms = obj.members;
  if (ms.length <= SCANNED) {
    for (let k = ms.length - 1; k >= 0; k--) {
      if (meter) meter.steps++;
      if (ms[k].key === key) return ms[k];
    }
    return undefined;
  }
  let table = byKey.get(obj);
  if (!table) {
    table = new Map();
    for (const m of ms) table.set(m.key, m); // a later duplicate replaces the earlier
    if (meter) meter.steps += ms.length;
    byKey.set(obj, table);
  }
  if (meter) meter.steps++;
  return table.get(key);
}

// raw is the text of node, as written.
export function raw(text, node) {
  return text.slice(node.start, node.end);
}

// tokens splits an RFC 6901 pointer into its reference tokens.
export function tokens(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  return pointer.slice(1).split('/').map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

// locate finds the place pointer names under root: {start, end, found, depth}. The place of an
// object's member is its key and value; of an array's item, the value. A pointer that goes
// further than the text does (a member that is not there, a key cut short) gives the deepest
// place it reaches, with found false.
export function locate(root, pointer, meter) {
  const toks = tokens(pointer);
  if (meter) meter.steps += pointer.length;
  let node = root;
  let place = { start: root.start, end: root.end };
  if (toks === null) return { ...place, found: false, depth: 0 };
  let depth = 0;
  for (const tok of toks) {
    let next;
    if (node.kind === 'object') {
      const m = member(node, tok, meter);
      if (m) next = { node: m.value, start: m.keyStart, end: m.value.end };
    } else if (node.kind === 'array' && /^(0|[1-9]\d*)$/.test(tok)) {
      const item = node.items[Number(tok)];
      if (item) next = { node: item, start: item.start, end: item.end };
      if (meter) meter.steps++;
    }
    if (!next) return { ...place, found: false, depth };
    node = next.node;
    place = { start: next.start, end: next.end };
    depth++;
  }
  return { ...place, found: true, depth };
}

// valueAt is the node pointer names, or undefined.
export function valueAt(root, pointer) {
  const toks = tokens(pointer);
  if (toks === null) return undefined;
  let node = root;
  for (const tok of toks) {
    if (node.kind === 'object') {
      node = member(node, tok)?.value;
    } else if (node.kind === 'array' && /^(0|[1-9]\d*)$/.test(tok)) {
      node = node.items[Number(tok)];
    } else {
      node = undefined;
    }
    if (!node) return undefined;
  }
  return node;
}

// Lines is text's table of line starts and of surrogate pairs, built in one pass, for the line
// and column of an offset and back, each by binary search. Lines end at "\n" (a "\r" before it
// is the line's last character, as the normalizer counts); columns count code points, a
// surrogate pair as one, a lone surrogate as one.
export class Lines {
  constructor(text, meter) {
    this.text = text;
    this.starts = [0]; // the offset of each line's first character
    this.pairs = []; // the offset of each surrogate pair's high half
    const n = text.length;
    for (let k = 0; k < n; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x0a) {
        this.starts.push(k + 1);
      } else if (c >= 0xd800 && c <= 0xdbff && k + 1 < n) {
        const d = text.charCodeAt(k + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          this.pairs.push(k);
          k++;
        }
      }
    }
    if (meter) meter.steps += n;
  }

  // lineColumn is the line and column (both from 1) of offset.
  lineColumn(offset, meter) {
    const line = upperBound(this.starts, offset, meter); // lines that start at or before offset
    const start = this.starts[line - 1];
    // The pairs whose both halves lie in [start, offset) count once each.
    const pairs = lowerBound(this.pairs, offset - 1, meter) - lowerBound(this.pairs, start, meter);
    return { line, column: offset - start - Math.max(0, pairs) + 1 };
  }

  // offsetOf is the offset of line and column, or -1 when the text has no such line; a column
  // past the line's end gives its end.
  offsetOf(line, column, meter) {
    if (line > this.starts.length) return -1;
    const l = Math.max(1, line);
    const start = this.starts[l - 1];
    const end = l < this.starts.length ? this.starts[l] - 1 : this.text.length;
    let off = start + Math.max(0, column - 1);
    // Each pair before the place so far takes one more code unit.
    for (let p = lowerBound(this.pairs, start, meter); p < this.pairs.length && this.pairs[p] < off && off < end; p++) {
      if (meter) meter.steps++;
      off++;
    }
    return Math.min(off, end);
  }
}

// lowerBound is the number of values of sorted a that are below x.
function lowerBound(a, x, meter) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    if (meter) meter.steps++;
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// upperBound is the number of values of sorted a that are at most x.
function upperBound(a, x, meter) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    if (meter) meter.steps++;
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// lineColumn is the line and column of offset in text (see Lines); for many offsets of one
// text, make its Lines once.
export function lineColumn(text, offset) {
  return new Lines(text).lineColumn(offset);
}

// offsetOf is the offset of line and column in text (see Lines.offsetOf).
export function offsetOf(text, line, column) {
  return new Lines(text).offsetOf(line, column);
}

// pointerOfPath turns a diagnostic's or error's dotted path (messages[3].tool_calls[0],
// metadata.model, a["odd key"]) into an RFC 6901 pointer, or null when it cannot read it.
export function pointerOfPath(path) {
  if (!path) return '';
  const re = /(?:^|\.)([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let out = '';
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    const m = re.exec(path);
    if (!m) return null;
    let tok = m[1] ?? m[2];
    if (m[3] !== undefined) {
      try { tok = JSON.parse(m[3]); } catch { return null; }
    }
    out += '/' + tok.replaceAll('~', '~0').replaceAll('/', '~1');
    at = re.lastIndex;
  }
  return out;
}
