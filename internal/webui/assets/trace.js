// The record as the platform shows it: final_response as the judge sees it, the kept messages
// as a trace (each tool call beside the tool message that answers it), and metadata's
// recognised keys apart from the opaque ones. Values are read from the record's text with
// jsonspan, so that what passes through verbatim is shown as it was written.
import { h } from './dom.js';
import { member, raw } from './jsonspan.js';

// The truncation marker the normalizer appends past the 50,000-character cap.
export const TRUNCATION_MARKER = '\u2026[truncated]';

// The metadata keys the platform shows in its own chrome; the rest it stores opaquely.
export const RECOGNISED_METADATA = ['model', 'system_prompt_id', 'total_input_tokens', 'total_output_tokens', 'agent_runtime_ms'];

// The message keys the trace shows in their own places; any other key is listed under the
// message, as it passes through.
const SHOWN_KEYS = new Set(['role', 'content', 'thinking', 'tool_calls', 'tool_call_id']);

// renderFinal fills the final_response section: the text the judge grades, and where the
// record says it was cut, the marker apart from the head.
export function renderFinal(el, text, truncated) {
  const chars = [...text].length;
  if (truncated && text.endsWith(TRUNCATION_MARKER)) {
    const head = text.slice(0, text.length - TRUNCATION_MARKER.length);
    el.replaceChildren(
      h('p', { class: 'final-info' }, `Cut at 50,000 characters, as the platform cuts it: the judge sees the first ${[...head].length.toLocaleString('en')} characters and the marker.`),
      h('pre', { class: 'final-text' }, head, h('mark', { class: 'truncation', title: 'the marker the platform appends' }, TRUNCATION_MARKER)),
    );
    return;
  }
  el.replaceChildren(
    h('p', { class: 'final-info' }, `${chars.toLocaleString('en')} characters, as the judge sees them.`),
    h('pre', { class: 'final-text' }, text),
  );
}

// str is a string node's value, or undefined.
function str(node) {
  return node && node.kind === 'string' ? node.value : undefined;
}

// jsonBlock shows a value as written.
function jsonBlock(text, node, cls = 'json') {
  return h('pre', { class: cls }, raw(text, node));
}

function renderContent(text, node) {
  if (!node || node.kind === 'null') return h('p', { class: 'content none' }, 'No content.');
  if (node.kind === 'string') {
    return node.value === '' ? h('p', { class: 'content none' }, 'Empty content ("").') : h('div', { class: 'content text' }, node.value);
  }
  if (node.kind === 'array') {
    if (node.items.length === 0) return h('p', { class: 'content none' }, 'Content is an empty list.');
    return h('ol', { class: 'content parts' }, node.items.map((part) => {
      if (part.kind === 'string') return h('li', { class: 'part' }, h('span', { class: 'part-type' }, 'text'), h('div', { class: 'text' }, part.value));
      const type = str(member(part, 'type')?.value);
      const partText = str(member(part, 'text')?.value);
      if (type === 'text' && partText !== undefined) {
        return h('li', { class: 'part', 'data-part-type': type }, h('span', { class: 'part-type' }, 'text'), h('div', { class: 'text' }, partText));
      }
      return h('li', { class: 'part', 'data-part-type': type ?? '' }, h('span', { class: 'part-type' }, type ? `${type} part` : 'part'), jsonBlock(text, part));
    }));
  }
  return jsonBlock(text, node);
}

function renderThinking(text, node) {
  if (!node || node.kind !== 'array' || node.items.length === 0) return null;
  const n = node.items.length;
  return h('details', { class: 'thinking' },
    h('summary', {}, `Thinking (${n} ${n === 1 ? 'block' : 'blocks'})`),
    node.items.map((block) => {
      const words = str(member(block, 'thinking')?.value) ?? str(member(block, 'text')?.value);
      return words !== undefined ? h('div', { class: 'text' }, words) : jsonBlock(text, block);
    }));
}

function renderExtra(text, msg) {
  const rows = msg.members.filter((m) => !SHOWN_KEYS.has(m.key));
  if (rows.length === 0) return null;
  return h('dl', { class: 'extra' }, rows.map((m) => [h('dt', {}, m.key), h('dd', {}, h('code', {}, raw(text, m.value)))]));
}

function renderArguments(text, node) {
  if (!node) return h('p', { class: 'args none' }, 'No arguments.');
  if (node.kind === 'string') {
    // OpenAI's JSON-encoded string stays a string in the record: shown as the text it holds.
    return h('div', { class: 'args' }, h('span', { class: 'args-kind' }, 'arguments (a string)'), h('pre', { class: 'json' }, node.value));
  }
  return h('div', { class: 'args' }, h('span', { class: 'args-kind' }, 'arguments'), jsonBlock(text, node));
}

// link pairs each kept tool call with the first later tool message whose tool_call_id is its
// id; a tool message that answers no call so paired is an orphan.
function link(messages) {
  const open = new Map(); // id -> [{msg, call}] calls not yet answered
  const answerOf = new Map(); // "msg/call" -> index of the answering message
  const answered = new Set(); // indexes of tool messages that answer a call
  messages.forEach((msg, i) => {
    const role = str(member(msg, 'role')?.value);
    if (role === 'tool') {
      const id = str(member(msg, 'tool_call_id')?.value);
      const waiting = id !== undefined ? open.get(id) : undefined;
      if (waiting && waiting.length > 0) {
        const { m, c } = waiting.shift();
        answerOf.set(`${m}/${c}`, i);
        answered.add(i);
      }
    }
    const calls = member(msg, 'tool_calls')?.value;
    if (calls && calls.kind === 'array') {
      calls.items.forEach((call, c) => {
        const id = str(member(call, 'id')?.value);
        if (id === undefined) return;
        if (!open.has(id)) open.set(id, []);
        open.get(id).push({ m: i, c });
      });
    }
  });
  return { answerOf, answered };
}

// renderMessage is one message of the trace; index is its place in the record's messages.
function renderMessage(text, msg, index, messages, links, tag) {
  const role = str(member(msg, 'role')?.value) ?? '';
  const el = h(tag, { class: `msg role-${role}`, 'data-role': role, 'data-index': index },
    h('div', { class: 'msg-head' }, h('span', { class: 'role' }, role), h('span', { class: 'index' }, `messages[${index}] of the record`)));
  const id = str(member(msg, 'tool_call_id')?.value);
  if (role === 'tool') {
    el.append(h('p', { class: 'tool-call-id' }, id !== undefined ? `tool_call_id ${JSON.stringify(id)}` : 'no tool_call_id'));
    if (!links.answered.has(index)) {
      el.classList.add('orphan');
      el.append(h('p', { class: 'mark orphan-mark' }, id === undefined
        ? 'Orphan answer: without a tool_call_id the trace cannot link it to a call.'
        : `Orphan answer: no earlier tool call with id ${JSON.stringify(id)} is left unanswered.`));
    }
  }
  el.append(renderContent(text, member(msg, 'content')?.value));
  const thinking = renderThinking(text, member(msg, 'thinking')?.value);
  if (thinking) el.append(thinking);
  const calls = member(msg, 'tool_calls')?.value;
  if (calls && calls.kind === 'array' && calls.items.length > 0) {
    el.append(h('ol', { class: 'calls' }, calls.items.map((call, c) => {
      const name = str(member(call, 'name')?.value) ?? '';
      const callID = str(member(call, 'id')?.value);
      const answer = links.answerOf.get(`${index}/${c}`);
      const side = h('div', { class: 'call-side' },
        h('p', { class: 'call-head' }, h('span', { class: 'call-label' }, 'tool call '), h('code', { class: 'call-name' }, name),
          callID !== undefined ? h('span', { class: 'call-id' }, ` id ${JSON.stringify(callID)}`) : h('span', { class: 'call-id' }, ' (no id)')),
        renderArguments(text, member(call, 'arguments')?.value));
      const answerSide = answer !== undefined
        ? h('div', { class: 'answer-side' }, renderMessage(text, messages[answer], answer, messages, links, 'div'))
        : h('div', { class: 'answer-side' }, h('p', { class: 'mark unanswered-mark' },
          callID === undefined ? 'Unanswered: a call without an id cannot be answered.' : 'Unanswered: no tool message answers this call.'));
      return h('li', { class: `call${answer === undefined ? ' unanswered' : ''}`, 'data-tool-call-id': callID ?? null, 'data-answered': answer !== undefined ? 'true' : 'false' }, side, answerSide);
    })));
  }
  const extra = renderExtra(text, msg);
  if (extra) el.append(extra);
  return el;
}

// renderTrace fills list with the record's messages: each tool message that answers a call is
// shown beside that call, the others in their place. It returns the count of messages.
export function renderTrace(list, summary, text, messagesNode) {
  list.replaceChildren();
  if (!messagesNode || messagesNode.kind !== 'array') {
    summary.textContent = 'No messages are kept: rich mode is off, and the platform shows the final response alone.';
    return 0;
  }
  const messages = messagesNode.items;
  const links = link(messages);
  messages.forEach((msg, i) => {
    if (links.answered.has(i)) return; // shown beside its call
    list.append(renderMessage(text, msg, i, messages, links, 'li'));
  });
  const calls = list.querySelectorAll('.call').length;
  const unanswered = list.querySelectorAll('.call.unanswered').length;
  const orphans = list.querySelectorAll('.msg.orphan').length;
  summary.textContent = `${messages.length} ${messages.length === 1 ? 'message' : 'messages'} kept, rich mode on; ` +
    `${calls} tool ${calls === 1 ? 'call' : 'calls'}, ${unanswered} unanswered; ${orphans} orphan ${orphans === 1 ? 'answer' : 'answers'}.`;
  return messages.length;
}

// renderMetadata fills el with metadata's recognised keys, then its opaque ones.
export function renderMetadata(el, text, node) {
  if (!node || node.kind !== 'object') {
    el.replaceChildren(h('p', {}, 'No metadata.'));
    return;
  }
  const recognised = RECOGNISED_METADATA.map((k) => member(node, k)).filter(Boolean);
  const seen = new Set();
  const opaque = [];
  for (let k = node.members.length - 1; k >= 0; k--) { // the last of a name counts
    const m = node.members[k];
    if (RECOGNISED_METADATA.includes(m.key) || seen.has(m.key)) continue;
    seen.add(m.key);
    opaque.push(m);
  }
  opaque.reverse(); // in the text's order
  const row = (m) => [h('dt', {}, m.key), h('dd', {}, m.value.kind === 'string' ? m.value.value : h('code', {}, raw(text, m.value)))];
  el.replaceChildren(
    h('h3', {}, 'Recognised keys'),
    recognised.length ? h('dl', { id: 'metadata-recognised', class: 'kv' }, recognised.map(row)) : h('p', { id: 'metadata-recognised' }, 'None.'),
    h('h3', {}, 'Opaque keys (stored as they are, not shown by the platform)'),
    opaque.length ? h('dl', { id: 'metadata-opaque', class: 'kv' }, opaque.map((m) => [h('dt', {}, m.key), h('dd', {}, h('code', {}, raw(text, m.value)))])) : h('p', { id: 'metadata-opaque' }, 'None.'),
  );
}
