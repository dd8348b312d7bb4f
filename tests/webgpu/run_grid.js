// run_grid.js - runs native_grid.c's grid through dropout_webgpu.js on a WebGPU device and
// compares every output and mask buffer with the native build's, byte for byte (canary
// bytes past the call included); prints PASS/FAIL/SKIP lines. tests/webgpu/suite.sh runs it.
//
// usage: node run_grid.js GRID_DIR browser URL CHROMIUM OUT_DIR [QUERY=DIGEST...]
//          headless chromium with --enable-unsafe-webgpu on URL (a page served from
//          127.0.0.1 holding dropout_webgpu.js and grid_case.js: navigator.gpu needs a
//          secure context); then, for each QUERY=DIGEST, the teaching page's section 5
//          at URL/web/index.html?QUERY must print "WebGPU vs WebAssembly: IDENTICAL
//          (digest DIGEST)" (native_grid --page's digest); a screenshot of the section
//          goes to OUT_DIR/webgpu-section.png; an argument usage:LINE requires the page
//          URL/usage.html (docs/WEBGPU.md's usage snippet) to print LINE
//        node run_grid.js GRID_DIR dawn
//          the npm package `webgpu` (Dawn) under node, on whatever Vulkan driver it finds
// A missing navigator.gpu, adapter or package is a SKIP with the reason.
'use strict';
const fs = require('fs');
const path = require('path');
const gridCase = require('./grid_case.js');

const [gridDir, mode, url, chromium, shotDir, ...pageCases] = process.argv.slice(2);
const tag = mode === 'dawn' ? 'webgpu[dawn' : 'webgpu[chromium';
let failed = 0;
const say = (line) => { console.log(line); if (line.startsWith('FAIL')) ++failed; };

const cases = fs.readFileSync(path.join(gridDir, 'grid.txt'), 'utf8').trim().split('\n').map(gridCase.parseCase);
const read = (c, ext) => {
  const f = path.join(gridDir, `${c.id}.${ext}`);
  return fs.existsSync(f) ? new Uint8Array(fs.readFileSync(f)) : null;
};

function firstDiff(want, got, c, what) {
  if (!got) return `${what}: nothing came back`;
  if (got.length !== want.length) return `${what}: ${got.length} bytes, want ${want.length}`;
  for (let i = 0; i < want.length; ++i) {
    if (want[i] !== got[i]) {
      const hex = (a) => Array.from(a.slice(i & ~3, (i & ~3) + 4)).map((v) => v.toString(16).padStart(2, '0')).join('');
      return `${what} byte ${i} (element ${what === 'mask' ? i * 8 : Math.floor(i / (c.dtype === 'f32' ? 4 : 2))}): ` +
        `dropout.h ${hex(want)}, WebGPU ${hex(got)} (bytes ${i & ~3}..${(i & ~3) + 3})`;
    }
  }
  return null;
}

// run every case through runOne(c, bytes) -> {y, m}; one PASS/FAIL line per op and dtype
async function runGrid(runOne, label, only, what) {
  const groups = new Map();
  for (const c of only || cases) {
    const key = what || (`${c.op}${c.op === 'forward' ? (c.withMask ? ' + mask' : ' alone') : ''} ${c.op === 'mask' ? '' : c.dtype}`.trim() +
      (c.view ? ', views' : ''));
    if (!groups.has(key)) groups.set(key, { n: 0, bad: [], bits: new Set(), inPlace: 0, maxN: 0 });
    const g = groups.get(key);
    // a call dropout_webgpu.js refuses, where dropout.h ran it, is this case's failure, not the run's
    let got, refused = null;
    try {
      got = await runOne(c, { x: read(c, 'x'), y0: read(c, 'y0'), m0: read(c, 'm0') });
    } catch (e) {
      refused = `refused what dropout.h ran: ${e.message.split('\n')[0]}`;
    }
    const wantY = read(c, 'y'), wantM = read(c, 'm');
    const d = refused || (wantY && firstDiff(wantY, got.y, c, 'y')) || (wantM && firstDiff(wantM, got.m, c, 'mask'));
    ++g.n; g.bits.add(c.bits); g.maxN = Math.max(g.maxN, c.count); if (c.inPlace) ++g.inPlace;
    if (d) g.bad.push(`case ${c.id} (${c.bits}-bit, p ${c.p}, pos ${c.pos}, n ${c.count}${c.inPlace ? ', in place' : ''}${c.view ? ', view ' + rawLine(c).split(' ').pop() : ''}): ${d}`);
  }
  for (const [key, g] of groups) {
    if (g.bad.length) say(`FAIL ${tag}: ${key}]: ${g.bad.length} of ${g.n} cases differ; ${g.bad.slice(0, 2).join('; ')}`);
    else say(`PASS ${tag}: ${key}]: ${g.n} cases (${[...g.bits].join('/')}-bit draws, up to ${g.maxN} elements, ${g.inPlace} in place) equal dropout.h's bytes${label}`);
  }
}

const b64 = (a) => (a ? Buffer.from(a).toString('base64') : null);
const unb64 = (s) => (s === null ? null : new Uint8Array(Buffer.from(s, 'base64')));

async function inBrowser() {
  let puppeteer;
  try { puppeteer = require('puppeteer-core'); } catch (e) { say(`SKIP ${tag}]: puppeteer-core not found`); return; }
  const browser = await puppeteer.launch({
    executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--no-first-run', '--disable-extensions'],
  });
  const errors = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    await page.goto(url + 'grid.html', { waitUntil: 'load' });
    const adapter = await page.evaluate(async () => {
      if (!navigator.gpu) return { error: 'navigator.gpu is absent (chromium without WebGPU, or not a secure context)' };
      const a = await navigator.gpu.requestAdapter();
      if (!a) return { error: 'navigator.gpu.requestAdapter() gave no adapter' };
      window.device = await a.requestDevice();
      window.device.addEventListener('uncapturederror', (e) => console.error('WebGPU: ' + e.error.message));
      window.dw = dropoutWebGPU.create(window.device);
      window.dw2 = dropoutWebGPU.create(window.device, { gridWidth: 2 });   // 2-D grids from 4097 elements
      const i = a.info;
      return { name: [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' / ') };
    });
    if (adapter.error) { say(`SKIP ${tag}]: ${adapter.error}`); return; }
    const label = ` on ${adapter.name}${/swiftshader/i.test(adapter.name) ? ' (SwiftShader: a CPU)' : ''}`;
    console.log(`adapter: ${adapter.name}`);
    const inPage = (which) => async (c, bytes) => {
      const r = await page.evaluate(async (cs, xs, y0s, m0s, w) => {
        const un = (s) => (s === null ? null : Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0)));
        const en = (a) => { if (!a) return null; let s = ''; for (let i = 0; i < a.length; ++i) s += String.fromCharCode(a[i]); return btoa(s); };
        const c = gridCase.parseCase(cs);
        const out = await gridCase.runCase(window.device, window[w], c, { x: un(xs), y0: un(y0s), m0: un(m0s) });
        return { y: en(out.y), m: en(out.m) };
      }, rawLine(c), b64(bytes.x), b64(bytes.y0), b64(bytes.m0), which);
      return { y: unb64(r.y), m: unb64(r.m) };
    };
    await runGrid(inPage('dw'), label);
    // again with at most 2 workgroups along x: the grid's rows (y) carry the rest
    const big = cases.filter((c) => c.count > 4096 || (c.view && c.view.shape.reduce((a, d) => a * d, 1) > 128));
    await runGrid(inPage('dw2'), ' with a grid 2 workgroups wide', big, '2-D grid');
    const ref = await page.evaluate(() => gridCase.refusals(window.device, window.dw));
    if (ref.bad.length) say(`FAIL ${tag}: refusals]: ${ref.bad.join('; ')}`);
    else say(`PASS ${tag}: refusals]: ${ref.n} bad calls throw the dropout.h code naming the argument; the encoder, submitted, left y and the mask unchanged`);
    const sub = await page.evaluate(() => gridCase.submits(window.device, window.dw,
      async () => (await navigator.gpu.requestAdapter()).requestDevice(), dropoutWebGPU.create));
    if (sub.bad.length) say(`FAIL ${tag}: submit]: ${sub.bad.join('; ')}`);
    else say(`PASS ${tag}: submit]: dw.submit resolves for good command buffers and rejects one using a destroyed buffer, one on a lost device, a call recorded into a finished encoder, one reading a buffer of another device and one recorded while a pass was open with a DropoutWebGPUError, none of it run; a fractional gridWidth refused`);
    await page.close();
    for (const pc of pageCases) {
      if (pc.startsWith('usage:')) {            // docs/WEBGPU.md's usage snippet, as a page
        const want = pc.slice(6);
        const up = await browser.newPage();
        up.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
        await up.goto(`${url}usage.html`, { waitUntil: 'load' });
        await up.waitForFunction(() => /^kept /.test(document.body.textContent.trim()), { timeout: 60000 }).catch(() => {});
        const got = (await up.evaluate(() => document.body.textContent)).trim();
        const g = got.match(/^kept (\d+) of (\d+); y\[0\] = (\S+)$/), w = want.match(/^kept (\d+) of (\d+); y\[0\] = (\S+)$/);
        if (g && w && g[1] === w[1] && g[2] === w[2] && Number(g[3]) === Number(w[3])) {
          say(`PASS ${tag}: docs/WEBGPU.md usage]: the snippet prints "${got}", as the same call in C`);
        } else {
          say(`FAIL ${tag}: docs/WEBGPU.md usage]: the snippet prints "${got.slice(0, 200)}", the same call in C "${want}"`);
        }
        await up.close();
        continue;
      }
      const eq = pc.lastIndexOf('=');
      const query = pc.slice(0, eq), digest = pc.slice(eq + 1);
      const tp = await browser.newPage();
      tp.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
      tp.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
      tp.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
      await tp.setViewport({ width: 1280, height: 900 });
      await tp.goto(`${url}web/index.html?${query}`, { waitUntil: 'load' });
      await tp.waitForSelector('body[data-webgpu]', { timeout: 120000 });
      await tp.waitForFunction(() => /ms/.test(document.getElementById('gpu-speed').textContent) ||
        document.body.dataset.webgpu === 'none' || /DIFFERENT|failed|refused|Not run/.test(document.getElementById('gpu-verdict').textContent),
      { timeout: 120000 });
      const shown = await tp.$eval('#gpu-verdict', (el) => el.textContent);
      const adapterLine = await tp.$eval('#gpu-adapter', (el) => el.textContent);
      if (digest.startsWith('refused:')) {
        // inputs the page refuses (an empty seed: 0.9.0 ran it as seed 0), or a position the
        // page takes whose 65536-element call here would pass 2^64 (0.9.0 moved it, unsaid)
        const field = digest.slice('refused:'.length), detail = await tp.$eval('#gpu-detail', (el) => el.textContent);
        if (shown.startsWith(`Not run: ${field}: `) && detail === '') say(`PASS ${tag}: page section 5 ?${query}]: "${shown}"`);
        else say(`FAIL ${tag}: page section 5 ?${query}]: shows "${shown}" / "${detail}", want "Not run: ${field}: ..." and no detail line`);
        await tp.close();
        continue;
      }
      const want = `WebGPU vs WebAssembly: IDENTICAL (digest ${digest})`;
      if (shown === want) say(`PASS ${tag}: page section 5 ?${query}]: "${shown}", the native build's digest; ${adapterLine}`);
      else say(`FAIL ${tag}: page section 5 ?${query}]: shows "${shown}", want "${want}"`);
      const sec = await tp.$('#gpu');
      await sec.screenshot({ path: path.join(shotDir, 'webgpu-section.png') });
      await tp.close();
    }
    if (errors.length) say(`FAIL ${tag}: console]: ${errors.slice(0, 4).join('; ')}`);
    else say(`PASS ${tag}: console]: no WebGPU validation errors, console errors or page errors`);
  } catch (e) {
    say(`FAIL ${tag}: driver]: ${e.message}`);
  } finally {
    await browser.close();
  }
}

async function inDawn() {
  let webgpu;
  try { webgpu = require('webgpu'); } catch (e) { say(`SKIP ${tag}]: the npm package webgpu is not installed (npm install --prefix build/web-test webgpu)`); return; }
  Object.assign(globalThis, webgpu.globals);
  // Vulkan first; Debian 12's lavapipe (Mesa 22.3) lacks a feature Dawn requires
  // (shaderUniform*ArrayDynamicIndexing), so then OpenGL ES through EGL without a display
  // (EGL_PLATFORM=surfaceless: Mesa's llvmpipe) in WebGPU's compatibility mode
  // (the GPU objects are kept in globals: Dawn drops what node collects)
  globalThis.vulkan = webgpu.create(['backend=vulkan']);
  let a = await globalThis.vulkan.requestAdapter();
  let backend = 'Vulkan';
  if (!a) {
    globalThis.gles = webgpu.create(['backend=opengles']);
    a = await globalThis.gles.requestAdapter({ featureLevel: 'compatibility' });
    backend = 'OpenGL ES, compatibility mode';
  }
  if (!a) { say(`SKIP ${tag}]: Dawn found no adapter on Vulkan or OpenGL ES (apt-get install mesa-vulkan-drivers libegl-mesa0; EGL_PLATFORM=surfaceless)`); return; }
  const i = a.info;
  const name = `${[i.vendor, i.architecture, i.device].filter(Boolean).join(' / ')} (${i.description}; ${backend})`;
  console.log(`adapter: ${name}`);
  const device = await a.requestDevice();
  let err = null;
  device.addEventListener('uncapturederror', (e) => { err = err || e.error.message; });
  const dropoutWebGPU = require('../../dropout_webgpu.js');
  const dw = dropoutWebGPU.create(device);
  await runGrid((c, bytes) => gridCase.runCase(device, dw, c, bytes), ` on Dawn, ${i.device || i.description}`);
  const ref = await gridCase.refusals(device, dw);
  if (ref.bad.length) say(`FAIL ${tag}: refusals]: ${ref.bad.join('; ')}`);
  else say(`PASS ${tag}: refusals]: ${ref.n} bad calls throw, and the buffers stay as they were`);
  const another = async () => (globalThis.gles
    ? await globalThis.gles.requestAdapter({ featureLevel: 'compatibility' })
    : await globalThis.vulkan.requestAdapter()).requestDevice();
  const sub = await gridCase.submits(device, dw, another, dropoutWebGPU.create);
  if (sub.bad.length) say(`FAIL ${tag}: submit]: ${sub.bad.join('; ')}`);
  else say(`PASS ${tag}: submit]: dw.submit resolves for good command buffers and rejects one using a destroyed buffer, one on a lost device, a call recorded into a finished encoder, one reading a buffer of another device and one recorded while a pass was open with a DropoutWebGPUError, none of it run; a fractional gridWidth refused`);
  // record() keeps nothing once a call's error scope has settled: 20000 records, submitted
  // in encoders of 1000, leave the heap as it was (each kept about 65 bytes in a chain of
  // promises that was never cut: 1.3 MB here; the bound leaves room for the collector)
  {
    require('v8').setFlagsFromString('--expose-gc');
    const gc = require('vm').runInNewContext('gc');
    const m = device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE });
    const rounds = async (n) => {
      for (let r = 0; r < n; ++r) {
        const enc = device.createCommandEncoder();
        for (let k = 0; k < 1000; ++k) dw.record(enc, { op: 'mask', p: 0.5, bits: 8, seed: 9n, stream: 2n, pos: 0n, count: 32, mask: m });
        await dw.submit([enc.finish()]);
      }
      await device.queue.onSubmittedWorkDone();
      gc(); await new Promise((r) => setTimeout(r, 20)); gc();
      return process.memoryUsage().heapUsed;
    };
    const h0 = await rounds(2), h1 = await rounds(20);
    const grew = (h1 - h0) / 1e6;
    if (grew < 0.3) say(`PASS ${tag}: memory]: 20000 records kept ${grew.toFixed(2)} MB of heap (below 0.3)`);
    else say(`FAIL ${tag}: memory]: 20000 records kept ${grew.toFixed(2)} MB of heap (each record's promise kept, never released)`);
    m.destroy();
  }
  if (err) say(`FAIL ${tag}: validation]: ${err}`);
}

const lines = fs.readFileSync(path.join(gridDir, 'grid.txt'), 'utf8').trim().split('\n');
const rawLine = (c) => lines.find((l) => l.startsWith(c.id + ' '));

const alive = setInterval(() => {}, 1000);   // Dawn's callbacks do not hold node's loop open
(mode === 'dawn' ? inDawn() : inBrowser()).catch((e) => say(`FAIL ${tag}: driver]: ${e.message}`)).then(() => {
  clearInterval(alive);
  process.exitCode = failed ? 1 : 0;
  if (mode === 'dawn') process.exit(process.exitCode);   // Dawn keeps node's loop alive
});
