function train_twice(outdir)
%TRAIN_TWICE  Train a small network twice with the same seeds and compare the learnables.
%   train_twice(OUTDIR) trains a 2-48-48-2 MLP with dropout (p = 0.2 after each hidden
%   layer) on two noisy spirals, in four pairs of runs, and prints for each pair
%   isequal(learnables1, learnables2). It writes OUTDIR/learnables_diff.png, the largest
%   difference of each learnable between the two runs of each pair. `make demo-octave`
%   runs it; docs/MATLAB.md walks through it.
%
%   Runs in GNU Octave (tested) and is written for MATLAB too (not tried there).
%
%   The pairs:
%     1. dropouth's dropout, trained twice with the same seed;
%     2. dropout from Octave's rand after rng(42), trained twice (it reproduces: one CPU,
%        one Octave, the same calls in the same order);
%     3. and 4. the same two, where the second run also watches its accuracy on a random
%        sample every 40 steps (randperm: one more user of the global generator).
%   Everything but the dropout masks is the same in all runs: the data, the initial
%   weights and the batch order come from dropouth.uniform at their own coordinates.
  if nargin < 1, outdir = '.'; end
  if ~exist(outdir, 'dir'), mkdir(outdir); end
  o = struct('p', 0.2, 'hidden', 48, 'epochs', 120, 'batch', 40, 'lr', 0.2, 'seed', 42);
  [X, Y] = spirals(200, o.seed);

  % the seed's recipe: train twice, compare the learnables
  L1 = train(X, Y, o, 'dropouth', false);
  L2 = train(X, Y, o, 'dropouth', false);
  R1 = train(X, Y, o, 'rand', false);
  R2 = train(X, Y, o, 'rand', false);
  % the second run with a monitor that draws from the global generator
  L3 = train(X, Y, o, 'dropouth', true);
  R3 = train(X, Y, o, 'rand', true);

  fprintf('a 2-%d-%d-2 MLP, dropout p = %g after each hidden layer, %d epochs of %d batches\n', ...
         o.hidden, o.hidden, o.p, o.epochs, size(X, 1) / o.batch);
  fprintf('training accuracy: dropouth %.3f, rand %.3f\n\n', accuracy(L1, X, Y), accuracy(R1, X, Y));
  fprintf('1. dropouth.forward / dropouth.backward, same seed, trained twice:\n');
  fprintf('   isequal(learnables1, learnables2) = %d\n', isequal(L1, L2));
  fprintf('2. rand-based dropout, rng(%d) before each run, trained twice:\n', o.seed);
  fprintf('   isequal(learnables1, learnables2) = %d   (rand reproduces too: one CPU, the same calls in order)\n', isequal(R1, R2));
  fprintf('3. dropouth, the second run also draws randperm for a monitor every 40 steps:\n');
  fprintf('   isequal(learnables1, learnables2) = %d\n', isequal(L1, L3));
  fprintf('4. rand-based dropout, the second run also draws randperm for a monitor every 40 steps:\n');
  fprintf('   isequal(learnables1, learnables2) = %d   (the monitor moved the global generator: other masks)\n\n', isequal(R1, R3));
  % where the masks come from: (seed, stream, position), the same in C, Python, CUDA, the browser
  w = dropouth.stream_u32([1 1], 'Seed', o.seed, 'Stream', 1, 'Position', 0);
  fprintf('layer 1''s first mask word (seed %d, stream 1, position 0): %08x, what dropout.h gives in any language\n', ...
         o.seed, w);

  pairs = {L1, L2; R1, R2; L1, L3; R1, R3};
  titles = {'1. dropouth, trained twice', sprintf('2. rand after rng(%d), trained twice', o.seed), ...
            '3. dropouth, 2nd run calls randperm', '4. rand after rng, 2nd run calls randperm'};
  if plot_differences(pairs, titles, fullfile(outdir, 'learnables_diff.png'))
    fprintf('wrote %s\n', fullfile(outdir, 'learnables_diff.png'));
  end
end

function L = train(X, Y, o, kind, monitor)
% The learnables {W1; b1; W2; b2; W3; b3} after o.epochs of minibatch SGD.
% kind 'dropouth': the masks are dropouth's at (seed, stream = layer, position), and the
% backward pass rebuilds them from the same coordinates: no mask is kept.
% kind 'rand': the usual rand(size(h)) >= p mask, kept for the backward pass.
  n = size(X, 1);
  T = double([Y == 1, Y == 2]);
  W1 = glorot(2, o.hidden, 1); b1 = zeros(1, o.hidden);
  W2 = glorot(o.hidden, o.hidden, 2); b2 = zeros(1, o.hidden);
  W3 = glorot(o.hidden, 2, 3); b3 = zeros(1, 2);
  if strcmp(kind, 'rand'), rng(o.seed); end        % MATLAB's recipe: reseed the global generator
  pos = uint64([0 0]);                             % dropouth: the next position of each layer
  step = 0;
  for epoch = 1:o.epochs
    [~, order] = sort(dropouth.uniform([n 1], 'Seed', o.seed, 'Stream', 9, 'Position', (epoch - 1) * n));
    for b = 1:n / o.batch
      idx = order((b - 1) * o.batch + (1:o.batch));
      x = X(idx, :); t = T(idx, :);
      % forward
      z1 = x * W1 + b1; h1 = max(z1, 0);
      [d1, s1] = drop(h1, o.p, kind, o.seed, 1, pos(1));
      z2 = d1 * W2 + b2; h2 = max(z2, 0);
      [d2, s2] = drop(h2, o.p, kind, o.seed, 2, pos(2));
      z3 = d2 * W3 + b3;
      e = exp(z3 - max(z3, [], 2));
      dz3 = (e ./ sum(e, 2) - t) / o.batch;        % softmax cross-entropy
      % backward
      dW3 = d2' * dz3; db3 = sum(dz3, 1);
      dz2 = undrop(dz3 * W3', o.p, kind, s2) .* (z2 > 0);
      dW2 = d1' * dz2; db2 = sum(dz2, 1);
      dz1 = undrop(dz2 * W2', o.p, kind, s1) .* (z1 > 0);
      dW1 = x' * dz1; db1 = sum(dz1, 1);
      pos = pos + uint64([numel(h1) numel(h2)]);   % the next step draws new positions
      W1 = W1 - o.lr * dW1; b1 = b1 - o.lr * db1;
      W2 = W2 - o.lr * dW2; b2 = b2 - o.lr * db2;
      W3 = W3 - o.lr * dW3; b3 = b3 - o.lr * db3;
      step = step + 1;
      if monitor && mod(step, 40) == 0             % a habit: watch a random sample
        probe = randperm(n, 16);
        accuracy({W1; b1; W2; b2; W3; b3}, X(probe, :), Y(probe));
      end
    end
  end
  L = {W1; b1; W2; b2; W3; b3};
end

% saved: what the backward needs. dropouth: the forward's plan, its coordinates (six
% numbers, not the mask); rand: the mask itself.
function [y, saved] = drop(h, p, kind, seed, layer, pos)
  if strcmp(kind, 'dropouth')
    [y, ~, ~, saved] = dropouth.forward(h, p, 'Seed', seed, 'Stream', layer, 'Position', pos);
  else
    saved = rand(size(h)) >= p;
    y = h .* saved / (1 - p);
  end
end

function dh = undrop(dy, p, kind, saved)
  if strcmp(kind, 'dropouth')
    dh = dropouth.backward(dy, saved);             % the plan's mask, rebuilt; dy must be h's size
  else
    dh = dy .* saved / (1 - p);
  end
end

function W = glorot(fan_in, fan_out, k)
% Glorot-uniform weights from dropouth's uniforms (stream 10 + k): the same in every run
  u = dropouth.uniform([fan_in fan_out], 'Seed', 1, 'Stream', 10 + k, 'Position', 0);
  W = (2 * u - 1) * sqrt(6 / (fan_in + fan_out));
end

function [X, Y] = spirals(m, seed)
% two noisy interleaved spirals, m points each: X is 2m-by-2, Y holds the class, 1 or 2
  u = dropouth.uniform([m 3], 'Seed', seed, 'Stream', 8, 'Position', 0);
  r = 0.1 + 0.9 * u(:, 1);
  a = 3 * pi * r;
  P = [r .* cos(a), r .* sin(a)] + 0.08 * (u(:, 2:3) - 0.5);
  X = [P; -P];
  Y = [ones(m, 1); 2 * ones(m, 1)];
end

function a = accuracy(L, X, Y)
  h1 = max(X * L{1} + L{2}, 0);
  h2 = max(h1 * L{3} + L{4}, 0);
  [~, guess] = max(h2 * L{5} + L{6}, [], 2);
  a = mean(guess == Y);
end

function ok = plot_differences(pairs, titles, file)
% MATLAB's picture: a bar per learnable, the largest |difference| between the two runs
  names = {'W1', 'b1', 'W2', 'b2', 'W3', 'b3'};
  ok = false;
  if exist('OCTAVE_VERSION', 'builtin')           % headless Octave: gnuplot's cairo terminal
    if ~any(strcmp(available_graphics_toolkits(), 'gnuplot'))
      fprintf('no PNG: Octave has no graphics toolkit here (Debian: apt-get install gnuplot-nox)\n');
      return;
    end
    warning('off', 'Octave:gnuplot-graphics');      % the advice to use Qt, which needs a display
    graphics_toolkit('gnuplot');
    warning('off', 'print:nogs');                   % Ghostscript: pngcairo does not need it
  end
  f = figure('visible', 'off', 'position', [0 0 900 620]);
  for k = 1:size(pairs, 1)
    d = cellfun(@(a, b) max(abs(a(:) - b(:))), pairs{k, 1}, pairs{k, 2});
    subplot(2, 2, k);
    bar(d);
    set(gca, 'xticklabel', names);
    if all(d == 0)
      ylim([-1 1]);
      title(sprintf('%s: all 0', titles{k}));
    else
      title(sprintf('%s: up to %.2g', titles{k}, max(d)));
    end
    ylabel('max |learnable_1 - learnable_2|');
  end
  if exist('OCTAVE_VERSION', 'builtin')
    print(f, '-dpngcairo', '-r80', file);          % gnuplot's cairo terminal
  else
    print(f, '-dpng', '-r80', file);
  end
  close(f);
  ok = true;
end
