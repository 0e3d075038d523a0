// What the browser tests share: the real normalizer started on 127.0.0.1 with a port the kernel
// picks (its address read from what it prints), Debian's chromium launched with a fresh profile,
// and a page whose console errors, page errors, dialogs and CSP violations are recorded, for the
// test to require none. Every wait is for a line, a selector, a response or a page state.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..', '..');
export const bin = process.env.NORMALIZER_BIN;
if (!bin) throw new Error('NORMALIZER_BIN is the normalizer binary to test');

// The flags without which chromium waits on a network this machine does not have.
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// start runs the normalizer with args and resolves, once addressOf(line, stream) has named the
// address it listens on in a line of its stdout or stderr, with {proc, base, stop}. A process
// that exits first rejects, with what it wrote on stderr.
export function start(args, addressOf) {
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let found = false;
    let stderr = '';
    const stop = async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    };
    for (const [name, stream] of [['stdout', proc.stdout], ['stderr', proc.stderr]]) {
      createInterface({ input: stream }).on('line', (line) => {
        if (name === 'stderr' && stderr.length < 4096) stderr += line + '\n';
        if (found) return;
        const addr = addressOf(line, name);
        if (addr) {
          found = true;
          resolve({ proc, base: `http://${addr}`, stop });
        }
      });
    }
    proc.on('exit', (code) => { if (!found) reject(new Error(`normalizer ${args[0]} exited with ${code} before listening: ${stderr}`)); });
    proc.on('error', reject);
  });
}

// serve starts `normalizer serve` on a free port: its "listening" log line names the address.
export function serve() {
  return start(['serve', '--addr', '127.0.0.1:0', '--log-level', 'info'], (line, stream) => {
    if (stream !== 'stderr') return null;
    try {
      const ev = JSON.parse(line);
      return ev.message === 'listening' ? ev.addr : null;
    } catch {
      return null;
    }
  });
}

// view starts `normalizer view corpus` on a free port: it prints http://ADDR/corpus on stdout.
export function view(corpus) {
  return start(['view', corpus], (line, stream) => {
    const m = stream === 'stdout' && /^http:\/\/(127\.0\.0\.1:\d+)\/corpus$/.exec(line);
    return m ? m[1] : null;
  });
}

// launch starts chromium with a fresh profile; close() closes it and removes the profile.
export async function launch(viewport = { width: 1280, height: 900 }) {
  const profile = await mkdtemp(join(tmpdir(), 'normalizer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

// rejectionAnswer tells chromium's own line for an API answer that is a rejection (400, 413,
// 422) or the 404 of a corpus item a server does not have: chromium reports every 4xx fetch on
// the console, and there a rejection is the page's data, not its error.
function rejectionAnswer(base, msg) {
  const m = /^Failed to load resource: the server responded with a status of (\d+)/.exec(msg.text());
  if (!m) return false;
  const url = msg.location().url;
  const api = url === `${base}/v1/normalize?explain=true` || url.startsWith(`${base}/v1/fix`);
  return (api && ['400', '413', '422'].includes(m[1])) || (url.startsWith(`${base}/v1/corpus/items/`) && m[1] === '404');
}

// watch records on page every console error, page error, dialog and CSP violation into the
// array it returns; clean asserts it is empty.
export async function watch(page, base) {
  const trouble = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error' || rejectionAnswer(base, msg)) return;
    trouble.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (err) => trouble.push(`page error: ${err.message}`));
  page.on('dialog', (d) => { trouble.push(`dialog: ${d.type()} ${d.message()}`); d.dismiss(); });
  await page.addInitScript(() => {
    window.__ran = [];
    window.__csp = [];
    for (const name of ['alert', 'confirm', 'prompt']) {
      window[name] = (...args) => { window.__ran.push(`${name}(${args.join(',')})`); };
    }
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return trouble;
}

// open loads base+path in a new page of context, watched, and waits until the page (the
// porter's or the corpus table) says it is idle.
export async function open(context, base, path = '/') {
  const page = await context.newPage();
  const trouble = await watch(page, base);
  await page.goto(base + path);
  await idle(page);
  return { page, trouble };
}

// idle waits until the page's body says it is idle: the porter's page between checks, the
// corpus table once a page of rows (or its error) is shown.
export function idle(page) {
  return page.waitForFunction(() => document.body.dataset.state === 'idle');
}

export async function clean(page, trouble) {
  const ran = await page.evaluate(() => ({ ran: window.__ran, csp: window.__csp, flag: window.__pwned }));
  assert.deepEqual(ran.ran, [], 'nothing called alert, confirm or prompt');
  assert.deepEqual(ran.csp, [], 'no Content-Security-Policy violation');
  assert.equal(ran.flag, undefined, 'no script of the result ran');
  assert.deepEqual(trouble, [], 'no console error, page error or dialog');
}

// api sends body (GET when there is none) to base+path and returns the status, the parsed
// answer (null when it is not JSON) and its bytes.
export async function api(base, path, body) {
  const resp = await fetch(base + path, body === undefined ? {} : { method: 'POST', body });
  const bytes = Buffer.from(await resp.arrayBuffer());
  let json = null;
  try { json = JSON.parse(bytes.toString('utf8')); } catch { /* a diff, or a result's bytes */ }
  return { status: resp.status, json, bytes, headers: resp.headers };
}

// check pastes text into the porter's form, submits it and waits for the check to finish.
export async function check(page, text) {
  const n = Number(await page.locator('#verdict').getAttribute('data-check') ?? 0);
  await page.fill('#result', text);
  await page.click('#check button[type=submit]');
  await page.waitForSelector(`#verdict[data-check="${n + 1}"]`);
}

// loadFile opens bytes as a file in the porter's form and waits for its check to finish
// (options: playwright's, such as timeout).
export async function loadFile(page, name, bytes, options = {}) {
  const n = Number(await page.getAttribute('#verdict', 'data-check') ?? 0);
  await page.setInputFiles('#file', { name, mimeType: 'application/json', buffer: bytes }, options);
  await page.waitForSelector(`#verdict[data-check="${n + 1}"]`, options);
}

// diagnostics are the porter's page's diagnostics as [code, pointer] pairs, in its order.
export function pageDiagnostics(page) {
  return page.$$eval('#diagnostics [data-code]', (els) => els.map((e) => [e.dataset.code, e.dataset.pointer]));
}

// pageState is what the porter's page shows after a check, read at once: the verdict, the
// rejection's message and its advice as [code, pointer] pairs, the diagnostics as [code,
// pointer] pairs and the trace's [index, role]s.
export function pageState(page) {
  return page.evaluate(() => ({
    verdict: document.getElementById('verdict').dataset.verdict,
    rejection: document.getElementById('rejection-message')?.textContent ?? null,
    advice: [...document.querySelectorAll('#rejection-advice')].map((e) => [e.dataset.code, e.dataset.pointer]),
    diagnostics: [...document.querySelectorAll('#diagnostics [data-code]')].map((e) => [e.dataset.code, e.dataset.pointer]),
    roles: [...document.querySelectorAll('#trace [data-role]')].map((e) => [Number(e.dataset.index), e.dataset.role]).sort((a, b) => a[0] - b[0]),
  }));
}

// axeViolations runs axe-core (evaluated by the driver, not as a script of the page: the CSP
// stays) and returns its serious and critical violations.
export async function axeViolations(page, axeSource) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
}
