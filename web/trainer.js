// trainer.js - section 4 of the page: the demo trainer (web/trainer_wasm.c, which is
// examples/mlp_model.h built for wasm32) trains both runs a few epochs at a time, so the
// page stays responsive, and draws the loss curves and the decision regions as it goes.
'use strict';

window.DropoutTrainer = (function () {
  const $ = (id) => document.getElementById(id);
  const EPOCHS = 300, EVAL_EVERY = 5, DEMO_HASH = 'e950157a793eac0e';
  const LO = -1.6, SPAN = 3.2, GRID = 120;
  const RUNS = [{ name: 'no dropout', p: 0, color: '#d62728', canvas: 'bnd-plain', acc: 'acc-plain' },
                { name: 'dropout p = 0.3', p: 0.3, color: '#1f77b4', canvas: 'bnd-drop', acc: 'acc-drop' }];
  let T = null, running = false, timer = 0, epoch = 0, curves = [[], []];

  const hex8 = (v) => (v >>> 0).toString(16).padStart(8, '0');

  // a canvas drawn in CSS pixels at the screen's resolution (crisp on a projector and a phone)
  function fit(canvas, aspect) {
    const dpr = window.devicePixelRatio || 1, w = canvas.clientWidth || canvas.width;
    const h = Math.round(w * aspect);
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return { ctx, w, h };
  }

  function drawLoss() {
    const { ctx, w, h } = fit($('loss'), 0.56);
    // sizes follow the page's type size (larger on a projector, smaller on a phone)
    const fs = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const tick = Math.round(0.75 * fs), small = Math.round(0.7 * fs);
    const L = Math.round(2.9 * fs), R = Math.round(0.8 * fs), TOP = Math.round(0.8 * fs), B = Math.round(2.3 * fs);
    const pw = w - L - R, ph = h - TOP - B;
    let top = 1.5;
    for (const c of curves) for (const pt of c) top = Math.max(top, pt.test, pt.train);
    top = Math.ceil(top * 2) / 2;
    const X = (e) => L + (pw * e) / EPOCHS, Y = (v) => TOP + ph * (1 - v / top);
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    ctx.font = `${tick}px system-ui, sans-serif`;
    ctx.fillStyle = '#111';
    ctx.strokeStyle = '#ddd';
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let v = 0; v <= top + 1e-9; v += 0.5) {
      ctx.beginPath(); ctx.moveTo(L, Y(v)); ctx.lineTo(L + pw, Y(v)); ctx.stroke();
      ctx.fillText(v.toFixed(1), L - 0.4 * fs, Y(v));
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let e = 0; e <= EPOCHS; e += 50) {
      ctx.beginPath(); ctx.moveTo(X(e), TOP); ctx.lineTo(X(e), TOP + ph); ctx.stroke();
      ctx.fillText(String(e), X(e), TOP + ph + 0.3 * fs);
    }
    ctx.fillText('epoch', L + pw / 2, TOP + ph + 1.25 * fs);
    ctx.save();
    ctx.translate(0.75 * fs, TOP + ph / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText('cross-entropy loss', 0, 0);
    ctx.restore();
    ctx.strokeStyle = '#111';
    ctx.strokeRect(L, TOP, pw, ph);
    curves.forEach((c, i) => {
      for (const key of ['train', 'test']) {
        ctx.strokeStyle = RUNS[i].color;
        ctx.lineWidth = key === 'test' ? 2.5 : 1.8;
        ctx.setLineDash(key === 'test' ? [] : [6, 4]);
        ctx.beginPath();
        c.forEach((pt, k) => { if (k) ctx.lineTo(X(pt.epoch), Y(pt[key])); else ctx.moveTo(X(pt.epoch), Y(pt[key])); });
        ctx.stroke();
      }
    });
    ctx.setLineDash([]);
    // the key, in the empty upper left corner
    const keys = [[0, 'test', 'no dropout, held-out'], [0, 'train', 'no dropout, training'],
                  [1, 'test', 'dropout, held-out'], [1, 'train', 'dropout, training']];
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.font = `${small}px system-ui, sans-serif`;
    const kx = L + 0.6 * fs, ky = TOP + 0.8 * fs, kh = 1.3 * small;
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.fillRect(kx - 0.3 * fs, ky - 0.7 * small, 13 * small, kh * keys.length + 0.3 * small);
    keys.forEach(([i, key, label], k) => {
      ctx.strokeStyle = RUNS[i].color;
      ctx.lineWidth = key === 'test' ? 2.5 : 1.8;
      ctx.setLineDash(key === 'test' ? [] : [6, 4]);
      ctx.beginPath(); ctx.moveTo(kx, ky + k * kh); ctx.lineTo(kx + 2.2 * small, ky + k * kh); ctx.stroke();
      ctx.fillStyle = '#111';
      ctx.fillText(label, kx + 2.8 * small, ky + k * kh);
    });
    ctx.setLineDash([]);
  }

  function drawBoundary(which) {
    const run = RUNS[which];
    const { ctx, w } = fit($(run.canvas), 1);
    T.tw_grid(which, GRID, LO, SPAN);
    const z = new Float32Array(T.memory.buffer, T.tw_logits(), GRID * GRID * 2);
    const img = new ImageData(GRID, GRID);
    for (let i = 0; i < GRID * GRID; ++i) {
      const p1 = 1 / (1 + Math.exp(z[2 * i] - z[2 * i + 1]));   // only the colour: not a checked number
      img.data.set([255 - 90 * p1, 200 + 20 * p1, 165 + 90 * p1, 255], 4 * i);
    }
    const tmp = document.createElement('canvas');
    tmp.width = GRID; tmp.height = GRID;
    tmp.getContext('2d').putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(tmp, 0, 0, w, w);
    // the boundary: cells whose predicted class differs from the right or lower neighbour
    const cell = w / GRID;
    ctx.fillStyle = '#222';
    for (let i = 0; i + 1 < GRID; ++i) {
      for (let j = 0; j + 1 < GRID; ++j) {
        const k = i * GRID + j;
        const here = z[2 * k + 1] > z[2 * k];
        if (here !== (z[2 * k + 3] > z[2 * k + 2]) || here !== (z[2 * (k + GRID) + 1] > z[2 * (k + GRID)])) {
          ctx.fillRect((j + 0.5) * cell - 0.9, (i + 0.5) * cell - 0.9, Math.max(1.8, cell), Math.max(1.8, cell));
        }
      }
    }
    const n = T.tw_train_n();
    const x = new Float32Array(T.memory.buffer, T.tw_train_x(), 2 * n);
    const y = new Int32Array(T.memory.buffer, T.tw_train_y(), n);
    for (let k = 0; k < n; ++k) {
      ctx.fillStyle = y[k] ? '#143cc8' : '#c8460a';
      ctx.beginPath();
      ctx.arc(((x[2 * k] - LO) / SPAN) * w, (1 - (x[2 * k + 1] - LO) / SPAN) * w, Math.max(2, w / 110), 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  function evaluate() {
    for (const which of [0, 1]) {
      T.tw_eval(which);
      const o = new Float64Array(T.memory.buffer, T.tw_out(), 4);
      curves[which].push({ epoch, train: o[0], trainAcc: o[1], test: o[2], testAcc: o[3] });
      $(RUNS[which].acc).textContent = `held-out: accuracy ${(100 * o[3]).toFixed(1)} %, loss ${o[2].toFixed(3)}`;
    }
  }
  function redraw() {
    drawLoss();
    drawBoundary(0);
    drawBoundary(1);
  }

  function finish() {
    running = false;
    $('train-go').textContent = 'Train again';
    $('train-go').disabled = false;
    $('train-stop').disabled = true;
    T.tw_hash_params(1);
    const h = new Uint32Array(T.memory.buffer, T.tw_hash(), 2);
    const hash = hex8(h[1]) + hex8(h[0]);
    $('train-hash').textContent = hash;
    const ok = hash === DEMO_HASH;
    $('train-verdict').textContent = ok ? '= make demo\u2019s: the same weights, bit for bit.'
                                        : `\u2260 make demo\u2019s ${DEMO_HASH}`;
    $('train-verdict').className = ok ? 'ok' : 'bad';
    $('train-status').textContent = `done: ${EPOCHS} epochs of both runs.`;
  }

  function step() {
    if (!running) return;
    const t0 = performance.now();
    let evaluated = false;
    while (epoch < EPOCHS && performance.now() - t0 < 40) {
      for (const which of [0, 1]) {
        const e = T.tw_epoch(which);
        if (e < 0) { running = false; $('train-status').textContent = 'training failed: error ' + e; return; }
      }
      ++epoch;
      if (epoch % EVAL_EVERY === 0 || epoch === 1) { evaluate(); evaluated = true; }
    }
    if (evaluated) redraw();
    $('train-status').textContent = `epoch ${epoch} of ${EPOCHS}`;
    if (epoch >= EPOCHS) finish();
    else timer = setTimeout(step, 0);
  }

  function go() {
    if (!T) return;
    clearTimeout(timer);
    for (const which of [0, 1]) {
      const code = T.tw_init(which, RUNS[which].p, 16, 1n);
      if (code < 0) { $('train-status').textContent = 'could not start: error ' + code; return; }
    }
    epoch = 0;
    curves = [[], []];
    $('train-hash').textContent = '\u2013';
    $('train-verdict').textContent = '';
    $('train-go').disabled = true;
    $('train-stop').disabled = false;
    running = true;
    step();
  }
  function stop() {
    running = false;
    clearTimeout(timer);
    $('train-go').textContent = 'Train again';
    $('train-go').disabled = false;
    $('train-stop').disabled = true;
    $('train-status').textContent = `stopped at epoch ${epoch}.`;
    $('train-go').focus();
  }

  return {
    start(trainer, autostart) {
      T = trainer;
      if (!T) {
        $('train-status').textContent = 'The trainer module is missing from this build (make web builds it).';
        $('train-go').disabled = true;
        return;
      }
      $('train-go').addEventListener('click', go);
      $('train-stop').addEventListener('click', stop);
      window.addEventListener('resize', () => { if (curves[0].length) redraw(); });
      for (const which of [0, 1]) T.tw_init(which, RUNS[which].p, 16, 1n);
      drawLoss();
      drawBoundary(0);
      drawBoundary(1);
      $('train-status').textContent = 'ready: about 5 seconds of training.';
      if (autostart) go();
    },
  };
})();
