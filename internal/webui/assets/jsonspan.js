// A JSON parser that keeps where each value is in the text: what the page needs to mark the
// place a diagnostic's pointer names, and to show a value as it was written (numbers, key order
// and escapes verbatim), which JSON.parse loses. Offsets are in UTF-16 code units of the text,
// as a textarea and String.slice count them.
//
// A node is {kind, start, end} with kind one of object, array, string, number, true, false,
// null; an object has members [{key, keyStart, value}] in the text's order (a duplicate key's
// last member is the one that counts, as in the platform's parser), an array items [node], a
// string its decoded value.

export class JSONSpanError extends Error {
  constructor(message, offset) {
    super(message);
    this.offset = offset;
  }
}

const WS = new Set([' ', '\t', '\n', '\r']);

export function parse(text) {
  let i = 0;
  const fail = (what) => { throw new JSONSpanError(`${what} at offset ${i}`, i); };
  const ws = () => { while (i < text.length && WS.has(text[i])) i++; };

  function str() {
    const start = i;
    i++; // the opening quote
    let out = '';
    let run = i;
    for (;;) {
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
      i = m.lastIndex;
      return { kind: 'number', start, end: i };
    }
    return fail('expected a value');
  }

  const root = value();
  ws();
  if (i !== text.length) fail('text after the value');
  return root;
}

// member is the member of object node obj named key that counts (the last of that name).
export function member(obj, key) {
  if (!obj || obj.kind !== 'object') return undefined;
  for (let k = obj.members.length - 1; k >= 0; k--) {
    if (obj.members[k].key === key) return obj.members[k];
  }
  return undefined;
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
export function locate(root, pointer) {
  const toks = tokens(pointer);
  let node = root;
  let place = { start: root.start, end: root.end };
  if (toks === null) return { ...place, found: false, depth: 0 };
  let depth = 0;
  for (const tok of toks) {
    let next;
    if (node.kind === 'object') {
      const m = member(node, tok);
      if (m) next = { node: m.value, start: m.keyStart, end: m.value.end };
    } else if (node.kind === 'array' && /^(0|[1-9]\d*)$/.test(tok)) {
      const item = node.items[Number(tok)];
      if (item) next = { node: item, start: item.start, end: item.end };
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

// lineColumn is the line and column (both from 1; the column in code points, as the
// normalizer's errors count it) of offset in text.
export function lineColumn(text, offset) {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: [...text.slice(lineStart, offset)].length + 1 };
}

// offsetOf is the offset of line and column (as lineColumn gives them) in text, or -1 when the
// text has no such line; a column past the line's end gives its end.
export function offsetOf(text, line, column) {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const k = text.indexOf('\n', start);
    if (k === -1) return -1;
    start = k + 1;
  }
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  let off = start;
  for (let c = 1; c < column && off < end; c++) {
    off += text.codePointAt(off) > 0xffff ? 2 : 1;
  }
  return off;
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
