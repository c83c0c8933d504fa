#!/usr/bin/env node
// Lighthouse (mobile profile, simulated throttling) on a running gifshelf server, signed in:
//
//   node scripts/lighthouse.mjs --base http://127.0.0.1:8080 [--runs 3] [--corpus DIR] [--out DIR]
//
// 1. Seeds the server through the API: registers the user `lighthouse` (or logs in when it exists)
//    and uploads 12 GIFs (the corpus files, each in a few variants that differ in one palette
//    colour, since the library refuses byte-identical files), unless the user has 12 already.
// 2. Audits `/` signed out (the welcome page), then signs in the way the app does (token and
//    username in localStorage, the media cookie from `POST /api/auth/session`) and audits `/`
//    (the tag cloud), `/gifs` (12 cards) and one detail page per corpus picture. Lighthouse
//    keeps that storage (`disableStorageReset`); the HTTP cache is cleared before every run, so
//    each run is a cold load. Each page runs `--runs` times; the run with the median performance
//    score is reported (Lighthouse's advice for variance).
// 3. Measures the gallery route's JavaScript: every script `/gifs` loaded, gzipped (level 9).
// 4. Prints the table next to the targets. It never fails on a figure, only when it cannot run.
//
// Chromium: `CHROMIUM_PATH` or /usr/bin/chromium (nothing downloads a browser).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv.slice(2));
const base = (args.base ?? process.env.GIFSHELF_URL ?? '').replace(/\/$/, '');
if (!base) fail('usage: node scripts/lighthouse.mjs --base http://127.0.0.1:PORT [--runs N] [--corpus DIR] [--out DIR]');
const runs = Math.max(1, Number(args.runs ?? 3));
const corpus = args.corpus ?? process.env.GIFSHELF_CORPUS ?? path.resolve(here, '../../../shared/corpus');
const outDir = args.out ?? null;
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const USER = { username: 'lighthouse', email: 'lighthouse@example.com', password: 'lighthouse-secret-1' };
const GALLERY_SIZE = 12;
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100 };
const GALLERY_JS_TARGET_KB = 100;

function parseArgs(list) {
  const out = {};
  for (let i = 0; i < list.length; i++) {
    const key = list[i]?.replace(/^--/, '');
    if (!key) continue;
    const value = list[i + 1] && !list[i + 1].startsWith('--') ? list[++i] : 'true';
    out[key] = value;
  }
  return out;
}

function fail(message) {
  console.error(`lighthouse: ${message}`);
  process.exit(1);
}

async function api(method, url, { token, json, body, headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (body !== undefined) {
    init.body = body;
  }
  const response = await fetch(`${base}${url}`, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: response.status, data };
}

/** The corpus GIFs (or none), read once. */
function corpusGifs() {
  if (!existsSync(corpus)) return [];
  return readdirSync(corpus)
    .filter((name) => name.endsWith('.gif'))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(corpus, name)) }));
}

/**
 * A copy of `gif` with every colour table recoloured: variant 0 is the file itself, 1 inverts the
 * colours, 2 warms them, 3 cools them. Another picture each, so the library (which
 * refuses a GIF it holds already) takes them, and the gallery does not show one image four times.
 */
function variant(gif, n) {
  const copy = Buffer.from(gif);
  if (n % 4 === 0) return copy;
  const recolour = (at, colours) => {
    for (let i = 0; i < colours; i++) {
      const o = at + i * 3;
      const [r, g, b] = [copy[o], copy[o + 1], copy[o + 2]];
      const clamp = (v) => Math.max(0, Math.min(255, v));
      const [nr, ng, nb] =
        n % 4 === 1 ? [255 - r, 255 - g, 255 - b] : n % 4 === 2 ? [clamp(r + 60), g, clamp(b - 60)] : [clamp(r - 60), g, clamp(b + 60)];
      copy[o] = nr;
      copy[o + 1] = ng;
      copy[o + 2] = nb;
    }
  };
  const tableSize = (packed) => ((packed & 0x80) !== 0 ? 1 << ((packed & 0x07) + 1) : 0);
  const skipSubBlocks = (at) => {
    let pos = at;
    while (pos < copy.length && copy[pos] !== 0) pos += copy[pos] + 1;
    return pos + 1;
  };
  let pos = 13;
  const globalColours = tableSize(copy[10]);
  recolour(pos, globalColours);
  pos += globalColours * 3;
  while (pos < copy.length) {
    const block = copy[pos];
    if (block === 0x21) {
      pos = skipSubBlocks(pos + 2);
    } else if (block === 0x2c) {
      const localColours = tableSize(copy[pos + 9]);
      pos += 10;
      recolour(pos, localColours);
      pos = skipSubBlocks(pos + localColours * 3 + 1);
    } else {
      break;
    }
  }
  return copy;
}

/** A small animated GIF (two frames, 4-colour palette, 64×48) when no corpus is at hand. */
function generatedGif(seed) {
  const w = 64;
  const h = 48;
  const header = Buffer.from('GIF89a', 'ascii');
  const screen = Buffer.from([w, 0, h, 0, 0xf1, 0, 0]);
  const palette = Buffer.from([seed & 0xff, 80, 200, 240, 200, seed & 0xff, 30, 30, 30, 250, 250, 250]);
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0]);
  const frames = [0, 1].map((f) => {
    const control = Buffer.from([0x21, 0xf9, 4, 0, 20, 0, 0, 0]);
    const descriptor = Buffer.from([0x2c, 0, 0, 0, 0, w, 0, h, 0, 0]);
    // Uncompressed-style LZW: code size 2, a clear code before every 3 pixels keeps codes at 3 bits.
    const pixels = [];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) pixels.push(((x >> 3) + (y >> 3) + f) % 4);
    const codes = [];
    pixels.forEach((p, i) => {
      if (i % 3 === 0) codes.push(4);
      codes.push(p);
    });
    codes.push(5);
    const bytes = [];
    let acc = 0;
    let bits = 0;
    for (const code of codes) {
      acc |= code << bits;
      bits += 3;
      while (bits >= 8) {
        bytes.push(acc & 0xff);
        acc >>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) bytes.push(acc & 0xff);
    const blocks = [];
    for (let i = 0; i < bytes.length; i += 255) {
      const chunk = bytes.slice(i, i + 255);
      blocks.push(chunk.length, ...chunk);
    }
    return Buffer.concat([control, descriptor, Buffer.from([2, ...blocks, 0])]);
  });
  return Buffer.concat([header, screen, palette, loop, ...frames, Buffer.from([0x3b])]);
}

const TITLES = [
  ['Moon impact', 'A rock meets the moon', ['space', 'science']],
  ['Rainbow swirl', 'Colours going round', ['colours', 'loop']],
  ['Pixel parade', 'Tiny sprites marching along', ['pixel-art', 'retro']],
  ['Crater close-up', 'Dust settles slowly', ['space']],
  ['Spectrum', 'Every hue at once', ['colours']],
  ['Side scroller', 'Level one, again', ['retro', 'games']],
  ['Lunar dust', 'Seen from orbit', ['space', 'loop']],
  ['Colour wheel', 'A smooth gradient', ['colours', 'calm']],
  ['Sprite walk', 'Left to right', ['pixel-art']],
  ['Impact', 'Boom, quietly', ['science']],
  ['Prism', 'Light split up', ['colours', 'science']],
  ['Arcade', 'Insert coin', ['games', 'retro']],
];

/** Registers (or logs in) the audit user and uploads the gallery's 12 GIFs; returns the token. */
async function seed() {
  const registered = await api('POST', '/api/auth/register', {
    json: { ...USER, confirmPassword: USER.password },
  });
  if (registered.status !== 201 && registered.status !== 409) {
    fail(`register answered ${registered.status}: ${JSON.stringify(registered.data)}`);
  }
  const login = await api('POST', '/api/auth/login', { json: { username: USER.username, password: USER.password } });
  const token = login.data?.token;
  if (!token) fail(`login answered ${login.status}: ${JSON.stringify(login.data)}`);
  const mine = await api('GET', `/api/gifs/dtos?page=0&size=${GALLERY_SIZE}`, { token });
  const have = mine.data?.totalElements ?? mine.data?.content?.length ?? 0;
  const files = corpusGifs();
  for (let i = have; i < GALLERY_SIZE; i++) {
    const [title, description, tags] = TITLES[i % TITLES.length];
    const source = files.length > 0 ? files[i % files.length] : null;
    const bytes = source ? variant(source.bytes, Math.floor(i / files.length)) : generatedGif(i * 37 + 11);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/gif' }), source?.name ?? `generated-${i}.gif`);
    form.append('gifData', new Blob([JSON.stringify({ title, description, tags })], { type: 'application/json' }));
    const uploaded = await api('POST', '/api/gifs', { token, body: form });
    if (uploaded.status !== 201) fail(`upload ${i + 1} answered ${uploaded.status}: ${JSON.stringify(uploaded.data)}`);
  }
  return token;
}

/**
 * Waits until the renditions job has run for every GIF of the first page (its renditions go beyond
 * the three made at upload: original, thumbnail, still), since they change what the pages play,
 * or until 10 minutes have passed. Returns the page.
 */
async function waitForRenditions(token) {
  const deadline = Date.now() + 600_000;
  const started = Date.now();
  for (;;) {
    const page = await api('GET', `/api/gifs/dtos?page=0&size=${GALLERY_SIZE}`, { token });
    const gifs = page.data?.content ?? [];
    const pending = gifs.filter((g) => (g.renditions ?? []).length <= 3);
    if (gifs.length >= GALLERY_SIZE && pending.length === 0) {
      process.stderr.write(`lighthouse: renditions ready after ${Math.round((Date.now() - started) / 1000)} s\n`);
      return gifs;
    }
    if (Date.now() > deadline) {
      process.stderr.write(`lighthouse: ${pending.length} GIFs still without their renditions; auditing anyway\n`);
      return gifs;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** One detail page per distinct corpus picture (the newest variant of each), largest file first. */
function detailPages(gifs) {
  const seen = new Map();
  for (const gif of gifs) {
    const key = `${gif.contentWidth}:${gif.contentSize}`;
    if (!seen.has(key)) seen.set(key, gif);
  }
  return [...seen.values()]
    .sort((a, b) => b.contentSize - a.contentSize)
    .map((gif) => {
      const original = (gif.renditions ?? []).find((r) => r.kind === 'original');
      const dims = original ? `${original.width}x${original.height}` : `${gif.contentWidth}w`;
      return {
        name: `/gifs/${gif.id} (${dims}, ${Math.round(gif.contentSize / 1024)} KB)`,
        path: `/gifs/${gif.id}`,
        signedIn: true,
      };
    });
}

function median(reports) {
  const sorted = [...reports].sort(
    (a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0),
  );
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

async function audit(browser, port, url) {
  const reports = [];
  let retries = 3;
  for (let i = 0; i < runs; i++) {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await page.close();
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      disableStorageReset: true,
    });
    const error = !result?.lhr ? 'no result' : result.lhr.runtimeError?.message;
    if (error) {
      // Lighthouse's own hiccups (NO_NAVSTART and the like) happen now and then: run again.
      if (retries-- > 0) {
        process.stderr.write(`lighthouse: ${url}: ${error}; running it again\n`);
        i--;
        continue;
      }
      fail(`${url}: ${error}`);
    }
    reports.push(result.lhr);
  }
  return median(reports);
}

/** What costs a category points: weighted audits below full marks (metrics below 0.9), and for
 * performance the opportunities and insights that estimate savings. */
function failures(lhr, category) {
  const refs = lhr.categories[category].auditRefs;
  const out = [];
  for (const ref of refs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null) continue;
    const shown = `${ref.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`;
    if (ref.weight > 0 && audit.score < (ref.group === 'metrics' ? 0.9 : 1)) out.push(shown);
    else if (category === 'performance' && ref.weight === 0 && audit.score < 0.9) {
      const savings = audit.metricSavings ?? {};
      if ((savings.LCP ?? 0) > 0 || (savings.FCP ?? 0) > 0 || (savings.TBT ?? 0) > 0 || (savings.CLS ?? 0) > 0) {
        out.push(shown);
      }
    }
  }
  return out;
}

/** Every script `/gifs` loaded, fetched again and gzipped: what the gallery route costs. */
async function galleryJs(lhr) {
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script' && r.url.startsWith(base));
  let raw = 0;
  let gzip = 0;
  const files = [];
  for (const script of scripts) {
    const bytes = Buffer.from(await (await fetch(script.url)).arrayBuffer());
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += zipped;
    files.push(`${new URL(script.url).pathname} ${(zipped / 1024).toFixed(1)} KiB`);
  }
  return { raw, gzip, files };
}

const pad = (value, width) => String(value).padEnd(width);

/** Signs the browser in as the app does: storage for the SPA, the HttpOnly cookie for media. */
async function signIn(browser, token, username) {
  const tab = await browser.newPage();
  await tab.goto(`${base}/login`, { waitUntil: 'load' });
  const status = await tab.evaluate(
    async (t, name) => {
      localStorage.setItem('token', t);
      localStorage.setItem('username', name);
      const r = await fetch('/api/auth/session', {
        method: 'POST',
        headers: { Authorization: `Bearer ${t}` },
        credentials: 'same-origin',
      });
      return r.status;
    },
    token,
    username,
  );
  if (status >= 300) fail(`POST /api/auth/session answered ${status}`);
  await tab.close();
}

/** The scores table, the gallery route's JavaScript and each page's missed audits. */
function report(rows, gallery) {
  const score = (lhr, id) => Math.round((lhr.categories[id].score ?? 0) * 100);
  const widths = [34, 13, 15, 16, 9];
  const line = (cells) => cells.map((c, i) => pad(c, widths[i] ?? 0)).join(' ').trimEnd();
  console.log('');
  console.log(`Lighthouse ${rows[0]?.lhr.lighthouseVersion} (mobile, simulated throttling), median of ${runs} run(s), ${base}`);
  console.log(line(['page', 'performance', 'accessibility', 'best practices', 'LCP ms']));
  console.log(line(['target', `>= ${TARGETS.performance}`, `${TARGETS.accessibility}`, `${TARGETS['best-practices']}`, '']));
  for (const { page, lhr } of rows) {
    const lcp = lhr.audits['largest-contentful-paint']?.numericValue;
    console.log(
      line([
        page.name,
        score(lhr, 'performance'),
        score(lhr, 'accessibility'),
        score(lhr, 'best-practices'),
        lcp === undefined ? '-' : Math.round(lcp),
      ]),
    );
  }
  if (gallery) {
    console.log('');
    console.log(
      `gallery route JS (/gifs, every script it loaded, gzip -9): ${(gallery.gzip / 1024).toFixed(1)} KiB = ${(gallery.gzip / 1000).toFixed(1)} kB (raw ${(gallery.raw / 1024).toFixed(1)} KiB), target <= ${GALLERY_JS_TARGET_KB} KB`,
    );
    for (const file of gallery.files) console.log(`  ${file}`);
  }
  console.log('');
  for (const { page, lhr } of rows) {
    const missed = Object.keys(TARGETS).flatMap((c) => failures(lhr, c).map((f) => `${c}: ${f}`));
    if (missed.length > 0) console.log(`${page.name}:\n  ${missed.join('\n  ')}`);
  }
}

async function main() {
  const health = await fetch(`${base}/api/health`).catch((e) => fail(`no server at ${base}: ${e.message}`));
  if (!health.ok) fail(`${base}/api/health answered ${health.status}`);
  const token = await seed();
  const gifs = await waitForRenditions(token);
  const username = USER.username;

  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const rows = [];
  let gallery = null;
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const pages = [
      { name: '/ (signed out)', path: '/', signedIn: false },
      { name: '/ (tag cloud)', path: '/', signedIn: true },
      { name: '/gifs (12 cards)', path: '/gifs', signedIn: true },
      ...detailPages(gifs),
    ];
    let signedIn = false;
    for (const page of pages) {
      if (page.signedIn && !signedIn) {
        await signIn(browser, token, username);
        signedIn = true;
      }
      process.stderr.write(`lighthouse: ${page.name} × ${runs}\n`);
      const lhr = await audit(browser, chrome.port, `${base}${page.path}`);
      if (page.signedIn && new URL(lhr.finalDisplayedUrl).pathname !== page.path) {
        fail(`${page.path} ended at ${lhr.finalDisplayedUrl}: the session did not hold`);
      }
      if (outDir) {
        mkdirSync(outDir, { recursive: true });
        const file = page.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
        writeFileSync(path.join(outDir, `${file}.json`), JSON.stringify(lhr));
      }
      if (page.path === '/gifs') gallery = await galleryJs(lhr);
      rows.push({ page, lhr });
    }
    await browser.disconnect();
  } finally {
    await chrome.kill();
  }

  report(rows, gallery);
  // The commit measured, for the note.
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
    console.log(`\ncommit ${commit}`);
  } catch {
    // not a git checkout: nothing to name
  }
}

await main();
