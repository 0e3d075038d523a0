// Builds the SDK corpus of internal/sdkcorpus: results made from the real objects of the SDKs
// that porters use (each SDK's own client parsing a recorded API response, its own classes and
// conversion helpers), serialized the ways porters serialize them. Every case is written to
// OUT as NAME.input.json (the exact bytes a handler would send) and NAME.case.json (its true
// source and what a careful platform engineer expects of it). Run it through
// scripts/sdk-corpus.sh, which installs the pinned packages of package-lock.json.
//
// Usage: node generate.mjs OUT
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const lock = JSON.parse(readFileSync(join(here, 'package-lock.json'), 'utf8'));

const out = process.argv[2];
if (!out) {
  console.error('usage: node generate.mjs OUT');
  process.exit(2);
}
mkdirSync(out, { recursive: true });

// version is the installed version of an npm package, as the lock file pins it.
export function version(pkg) {
  const entry = lock.packages[`node_modules/${pkg}`];
  if (!entry) throw new Error(`${pkg} is not in package-lock.json`);
  return entry.version;
}

const names = new Set();

// add writes one case. spec: {source: {sdk, package, language, api, version?}, built, serialized, body
// (the bytes, or a value for JSON.stringify), expect: {verdict, messages, answer, ...}}.
function add(name, spec) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) throw new Error(`case name ${name}`);
  if (names.has(name)) throw new Error(`case ${name} twice`);
  names.add(name);
  const body = typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  // A package with no npm twin (CrewAI) names the version of the source its case was built
  // from; every other is the version the lock file pins.
  const src = { ...spec.source, version: spec.source.version ?? version(spec.source.package) };
  const expect = { answer: null, ...spec.expect };
  for (const k of ['verdict', 'messages']) {
    if (!(k in expect)) throw new Error(`case ${name}: expect.${k} missing`);
  }
  const meta = { source: src, built: spec.built, serialized: spec.serialized, expect };
  writeFileSync(join(out, `${name}.input.json`), body.endsWith('\n') ? body : body + '\n');
  writeFileSync(join(out, `${name}.case.json`), JSON.stringify(meta, null, 2) + '\n');
}

const modules = ['openai-chat', 'openai-responses', 'agents', 'anthropic', 'gemini', 'langchain', 'ai-sdk', 'mistral', 'llamaindex', 'crewai', 'strands'];
for (const m of modules) {
  const mod = await import(`./cases/${m}.mjs`);
  await mod.build(add);
}
console.error(`sdkcorpus: ${names.size} cases written to ${out}`);
