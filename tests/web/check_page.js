// check_page.js - drives headless Chromium through the teaching page (build/web/) and
// prints PASS/FAIL lines; tests/web/suite.sh runs it.
//
// usage: node check_page.js URL CHROMIUM OUTDIR CASE... [--train HASH]
//   URL       where build/web/ is served (http://127.0.0.1:PORT/)
//   CASE      QUERY=FILE: load URL + "index.html?" + QUERY and require every line
//             "name value" of FILE (tests/web/stages.c's output for the same inputs) to be
//             what the page shows in its [data-check=name] element: strings equal, or
//             numbers equal as doubles (the page writes JavaScript's shortest form, the C
//             program %.17g)
//   --train   load index.html?train and require the weights' hash the page prints to be HASH
// Screenshots go to OUTDIR (desktop and phone sizes). Any console error, page error or
// failed request is a FAIL.
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [url, chromium, outdir, ...rest] = process.argv.slice(2);
let trainHash = null;
const cases = [];
for (let i = 0; i < rest.length; ++i) {
  if (rest[i] === '--train') trainHash = rest[++i];
  else cases.push(rest[i]);
}
let failed = 0;
const say = (line) => { console.log(line); if (line.startsWith('FAIL')) ++failed; };

function same(want, got) {
  if (want === got) return true;
  const a = Number(want), b = Number(got);
  return /^-?[0-9.e+-]+$/i.test(want) && /^-?[0-9.e+-]+$/i.test(got) && Number.isFinite(a) && a === b;
}

async function readChecks(page) {
  return page.evaluate(() => {
    const out = {};
    document.querySelectorAll('[data-check]').forEach((el) => {
      const v = el.querySelectorAll('.v').length
        ? Array.from(el.querySelectorAll('.v')).map((c) => c.textContent.trim()).join(' ')
        : el.textContent.trim().replace(/\s+/g, ' ');
      out[el.dataset.check] = v;
    });
    return out;
  });
}

// every input, select and button has a name a screen reader would read
async function unlabelled(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('input, select, button, canvas'))
    .filter((el) => {
      if (el.getAttribute('aria-label')) return false;
      if (el.tagName === 'BUTTON') return !el.textContent.trim();
      if (el.tagName === 'CANVAS') return true;
      return !(el.id && document.querySelector(`label[for="${el.id}"]`));
    }).map((el) => el.id || el.tagName));
}

(async () => {
  // A browser that cannot start on this machine (no shared memory, a missing library) is
  // the machine's lack, not the page's fault: a SKIP with chromium's own words.
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: chromium, headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions'],
    });
  } catch (e) {
    console.log(`SKIP web[browser]: chromium does not start here: ${String(e.message).split('\n')[0]}`);
    process.exit(0);
  }
  const errors = [];
  const open = async (query, viewport) => {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.setViewport(viewport || { width: 1280, height: 900 });
    await page.goto(url + 'index.html' + (query ? '?' + query : ''), { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="1"]', { timeout: 20000 });
    return page;
  };
  try {
    for (const c of cases) {
      const eq = c.lastIndexOf('=');
      const query = c.slice(0, eq), file = c.slice(eq + 1);
      const want = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => {
        const sp = l.indexOf(' ');
        return [l.slice(0, sp), l.slice(sp + 1)];
      });
      const page = await open(query);
      const got = await readChecks(page);
      const bad = want.filter(([k, v]) => !(k in got) || !same(v, got[k]));
      const name = `web[stages ${query}]`;
      if (bad.length) {
        say(`FAIL ${name}: ${bad.slice(0, 4).map(([k, v]) => `${k}: C says "${v}", page shows "${got[k]}"`).join('; ')}`);
      } else {
        say(`PASS ${name}: all ${want.length} values equal the native build's (${got.rule_error ? 'p refused: ' + got.rule_error : 'digest ' + got.digest_one})`);
      }
      await page.close();
    }

    // section 5 (web/webgpu.js): this browser runs without a GPU (--disable-gpu), so the
    // section must say there is no WebGPU and leave the rest of the page working (the
    // WebGPU run itself is tests/webgpu/'s)
    {
      const page = await open('');
      await page.waitForSelector('body[data-webgpu]', { timeout: 60000 });
      const state = await page.evaluate(() => document.body.dataset.webgpu);
      const verdict = await page.$eval('#gpu-verdict', (el) => el.textContent);
      const adapter = await page.$eval('#gpu-adapter', (el) => el.textContent);
      const digest = await page.$eval('[data-check="digest_one"]', (el) => el.textContent);
      if ((state === 'none' && /No WebGPU here/.test(verdict)) || /^WebGPU vs WebAssembly: IDENTICAL \(digest [0-9a-f]{16}\)$/.test(verdict)) {
        say(`PASS web[section 5, WebGPU]: "${adapter}" / "${verdict}"; section 2's digest ${digest} still shown`);
      } else {
        say(`FAIL web[section 5, WebGPU]: state ${state}, "${adapter}" / "${verdict}"`);
      }
      await page.close();
    }

    // inputs the page refuses: a select value from the address that the select does not
    // offer (0.9.0 read it as 0-bit draws or 0 chunks and drew nonsense, quoting the version
    // string as the library's message), and a field typed wrong after valid inputs (the
    // results below stay, greyed and said to be the last valid inputs')
    {
      const bad = [];
      for (const [query, want] of [['bits=12', /^draw width: one of 8, 16, 32 \(the address asked for "12"\)/],
                                   ['k=6', /^chunks k: one of 1, 2, 3, 4, 5, 8, 16 \(the address asked for "6"\)/]]) {
        const page = await browser.newPage();
        page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
        await page.goto(url + 'index.html?' + query + '&nogpu', { waitUntil: 'load' });
        await page.waitForFunction(() => document.getElementById('input-error').textContent !== '', { timeout: 20000 })
          .catch(() => {});
        const msg = await page.$eval('#input-error', (el) => el.textContent);
        const drawn = await page.evaluate(() => document.body.dataset.ready === '1');
        if (!want.test(msg) || drawn) bad.push(`?${query}: "${msg}"${drawn ? ', and the sections were drawn' : ''}`);
        await page.close();
      }
      const page = await open('nogpu');
      await page.click('#seed', { clickCount: 3 });
      await page.keyboard.type('12349x');
      await page.waitForFunction(() => document.body.dataset.stale === '1', { timeout: 5000 }).catch(() => {});
      const msg = await page.$eval('#input-error', (el) => el.textContent);
      const stale = await page.evaluate(() => document.body.dataset.stale === '1' &&
        getComputedStyle(document.getElementById('rule')).opacity < 1);
      if (!stale || !/^seed: .*The sections below still show the last valid inputs\.$/.test(msg)) bad.push(`seed 12349x: "${msg}", greyed ${stale}`);
      await page.click('#seed', { clickCount: 3 });
      await page.keyboard.type('12349');
      await page.waitForFunction(() => !document.body.dataset.stale, { timeout: 5000 }).catch(() => {});
      if (await page.evaluate(() => document.body.dataset.stale === '1' || document.getElementById('input-error').textContent !== '')) {
        bad.push('seed 12349 again: still marked stale');
      }
      await page.close();
      if (bad.length) say(`FAIL web[refused inputs]: ${bad.join('; ')}`);
      else say('PASS web[refused inputs]: ?bits=12 and ?k=6 refused by name (nothing drawn); a seed typed wrong greys the last results and says so, typed right clears it');
    }

    // keyboard: Tab reaches the controls in order, and every control has a label
    {
      const page = await open('');
      const missing = await unlabelled(page);
      const reached = new Set();
      for (let i = 0; i < 40; ++i) {
        await page.keyboard.press('Tab');
        reached.add(await page.evaluate(() => document.activeElement && document.activeElement.id));
      }
      const need = ['seed', 'stream', 'pos', 'bits', 'p-range', 'p', 'pos-prev', 'pos-next', 'try-small', 'k', 'train-go'];
      const unreached = need.filter((id) => !reached.has(id));
      if (missing.length || unreached.length) {
        say(`FAIL web[labels, keyboard]: unlabelled: ${missing.join(' ') || 'none'}; Tab never reaches: ${unreached.join(' ') || 'none'}`);
      } else {
        say(`PASS web[labels, keyboard]: every control labelled, Tab reaches all ${need.length}`);
      }
      // the arrow keys move the p slider, and the page follows
      await page.focus('#p-range');
      await page.keyboard.press('ArrowRight');
      await new Promise((r) => setTimeout(r, 200));
      const p = await page.$eval('#p', (el) => el.value);
      if (p === '0.301') say('PASS web[slider keys]: ArrowRight on the p slider makes p = 0.301');
      else say(`FAIL web[slider keys]: ArrowRight on the p slider gave p = ${p}`);
      // the refused p: 0.001 with 8-bit draws names the width that serves it
      await page.click('#try-small');
      await new Promise((r) => setTimeout(r, 200));
      // (a header with the 1.0 interface words it itself: dropout_rule_init's message)
      const msg = await page.$eval('#quant-msg', (el) => el.textContent);
      const ver = (await page.$eval('#status', (el) => el.textContent)).match(/dropout\.h (\d+)\.(\d+)/);
      const v1 = ver && (Number(ver[1]) > 0 || Number(ver[2]) >= 9);
      if (/16-bit draws/.test(msg) && /DROPOUT_(ERR_P_NEEDS|BITS)_16/.test(msg) && (!v1 || /dropout_rule_init\(/.test(msg))) {
        say(`PASS web[p = 0.001, 8 bits]: the message names 16-bit draws${v1 ? ", in dropout_rule_init's words" : ''}`);
      } else {
        say(`FAIL web[p = 0.001, 8 bits]: message "${msg}"`);
      }
      await page.close();
    }

    if (trainHash) {
      const page = await open('train');
      const t0 = Date.now();
      await page.waitForFunction(() => /^[0-9a-f]{16}$/.test(document.getElementById('train-hash').textContent),
        { timeout: 540000, polling: 500 });
      const got = await page.$eval('#train-hash', (el) => el.textContent);
      const s = ((Date.now() - t0) / 1000).toFixed(1);
      if (got === trainHash) say(`PASS web[trainer]: the page's weights hash ${got} = make demo's (${s} s in the browser)`);
      else say(`FAIL web[trainer]: the page printed ${got}, make demo prints ${trainHash}`);
      await page.screenshot({ path: path.join(outdir, 'screenshot-desktop.png'), fullPage: true });
      await page.close();
      const phone = await open('train', { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await phone.waitForFunction(() => /^[0-9a-f]{16}$/.test(document.getElementById('train-hash').textContent),
        { timeout: 540000, polling: 500 });
      await phone.screenshot({ path: path.join(outdir, 'screenshot-phone.png'), fullPage: true });
      await phone.close();
    } else {
      const page = await open('');
      await page.screenshot({ path: path.join(outdir, 'screenshot-desktop.png'), fullPage: true });
      await page.close();
      const phone = await open('', { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await phone.screenshot({ path: path.join(outdir, 'screenshot-phone.png'), fullPage: true });
      await phone.close();
    }
    say(`PASS web[screenshots]: ${path.join(outdir, 'screenshot-desktop.png')}, screenshot-phone.png`);
    if (errors.length) say(`FAIL web[console]: ${errors.slice(0, 5).join('; ')}`);
    else say('PASS web[console]: no console errors, page errors or failed requests');
  } catch (e) {
    say(`FAIL web[driver]: ${e.message}`);
  } finally {
    await browser.close();
  }
  process.exitCode = failed ? 1 : 0;
})();
