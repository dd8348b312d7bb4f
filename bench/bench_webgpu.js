// bench_webgpu.js - drives bench/webgpu_speed.html in headless chromium (WebGPU on, the
// page served from 127.0.0.1) and writes a markdown table: each dropout_webgpu.js call
// against a WebGPU buffer copy of the same bytes, on the adapter chromium offers.
// usage: node bench_webgpu.js URL CHROMIUM OUT.md LOG2N REPS CPU_LINE
'use strict';
const fs = require('fs');
const puppeteer = require('puppeteer-core');
const [url, chromium, out, log2n, reps, cpu] = process.argv.slice(2);
(async () => {
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--no-first-run', '--disable-extensions'] });
  try {
    const page = await browser.newPage();
    await page.goto(url + 'webgpu_speed.html', { waitUntil: 'load' });
    const version = await browser.version();
    const r = await page.evaluate((l, k) => window.bench(l, k), Number(log2n), Number(reps));
    if (process.env.DEBUG) console.log(JSON.stringify(r));
    const soft = /swiftshader|llvmpipe|lavapipe|warp/i.test(r.adapter);
    const lines = [
      `# dropout_webgpu.js on ${r.adapter}`, '',
      `${soft ? '**A software adapter: the GPU is emulated on the CPU, so these figures say how SwiftShader runs integer-heavy WGSL, not how a GPU would.** ' : ''}` +
      `Browser: ${version}, headless, \`--enable-unsafe-webgpu\`. Machine: ${cpu}. ` +
      `2^${log2n} elements, p = 0.5; each figure is the best of ${reps} runs from \`queue.submit\` to ` +
      '`onSubmittedWorkDone`; the copy (`copyBufferToBuffer` of the bytes the call reads and writes: ten in one submission, over ten) timed right after each call, in the same page.', '',
      'Two yardsticks for the same bytes: `copyBufferToBuffer`, and a WGSL shader that copies them one u32 word per invocation (64 a workgroup, as here).', '',
      '| call | draws | ms | M elements/s | buffer copy ms | / buffer copy | copy shader ms | / copy shader |', '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...r.rows.map((w) => `| ${w.name} | ${w.bits}-bit | ${w.ms.toFixed(1)} | ${w.melem.toFixed(2)} | ${w.copy.toFixed(3)} | ${w.ratio.toFixed(0)} | ${w.scopy.toFixed(2)} | ${w.sratio.toFixed(1)} |`),
      '', 'Read with care: the machine is shared (other jobs run on its cores), so a figure moves by up to 2x between runs. ' +
      'On SwiftShader the buffer copy of 8.4 MB takes 0.05 to 0.1 ms, i.e. 80 to 170 GB/s, more than this machine's memory moves, so it is not a copy this adapter makes ' +
      'synchronously; the copy shader, which pays the adapter\'s cost per invocation as the calls do, is the yardstick that means something. ' +
      'The 1-D view row runs the same forward through the view kernel (one invocation and one Philox block per element) instead of the contiguous one (32 elements an invocation).',
      '', `Made by \`make bench-webgpu\` (bench/bench_webgpu.sh).`, '',
    ];
    fs.writeFileSync(out, lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
  }
})().catch((e) => { console.error(e.message); process.exitCode = 1; });
