function check_errors()
% check_errors - the refusals and the accepted spellings of the +dropouth package. Each bad
% call must raise its identifier with a message that names the argument, and leave the
% variable it would have assigned as it was; each accepted spelling must give the bits of
% the plain one. Prints one PASS or FAIL line per group.
  x = reshape(single(1:24), 2, 3, 4);
  c = {'Seed', 1, 'Position', 0};
  big = bitor(bitshift(uint64(4294967295), 32), uint64(4294967295));   % 2^64 - 1

  % {call, identifier, a word the message must contain}
  bad = {
    @() dropouth.forward(complex(x, 1), 0.5, c{:}),          'dropouth:badX', 'complex'
    @() dropouth.forward(sparse(double(x(:, :, 1))), 0.5, c{:}), 'dropouth:badX', 'sparse'
    @() dropouth.forward(int32(x), 0.5, c{:}),               'dropouth:badX', 'int32'
    @() dropouth.forward(x > 3, 0.5, c{:}),                  'dropouth:badX', 'logical'
    @() dropouth.forward('abc', 0.5, c{:}),                  'dropouth:badX', 'char'
    @() dropouth.forward({1}, 0.5, c{:}),                    'dropouth:badX', 'cell'
    @() dropouth.backward(int8(x), 0.5, c{:}),               'dropouth:badDy', 'dy'
    @() dropouth.forward(x, -0.1, c{:}),                     'dropouth:badP', 'p must be in [0, 1]'
    @() dropouth.forward(x, 1.5, c{:}),                      'dropouth:badP', 'p must be in [0, 1]'
    @() dropouth.forward(x, NaN, c{:}),                      'dropouth:badP', 'NaN'
    @() dropouth.forward(x, [0.1 0.2], c{:}),                'dropouth:badP', 'scalar in [0, 1] (got a 1x2 double)'
    @() dropouth_next(x, big - 23),                          'dropouth:streamEnd', 'last position'
    @() dropouth.forward(x, 0.5i, c{:}),                     'dropouth:badP', 'complex'
    @() dropouth.forward(x, int8(0), c{:}),                  'dropouth:badP', 'int8'
    @() dropouth.forward(x, 0.001, c{:}, 'Bits', 8),         'dropouth:pNeedsMoreBits', '''Bits'', 16'
    @() dropouth.forward(x, 0.999, c{:}, 'Bits', 8),         'dropouth:pNeedsMoreBits', 'dropping everything'
    @() dropouth.forward(x, 0.1, c{:}, 'Bits', 8),           'dropouth:pNeedsMoreBits', 'more than 1% off'
    @() dropouth.mask([4 4], 1e-6, c{:}, 'Bits', 16),        'dropouth:pNeedsMoreBits', '''Bits'', 32'
    @() dropouth.forward(x, 1e-12, c{:}),                    'dropouth:badP', '50 * 2^-32'
    @() dropouth.forward(x, 0.5, 'Seed', 1.5, 'Position', 0), 'dropouth:badSeed', 'not an integer'
    @() dropouth.forward(x, 0.5, 'Seed', -1, 'Position', 0), 'dropouth:badSeed', 'negative'
    @() dropouth.forward(x, 0.5, 'Seed', 2^53, 'Position', 0), 'dropouth:badSeed', '2^53'
    @() dropouth.forward(x, 0.5, 'Seed', 2^64, 'Position', 0), 'dropouth:badSeed', '2^53'
    @() dropouth.forward(x, 0.5, 'Seed', NaN, 'Position', 0), 'dropouth:badSeed', 'NaN'
    @() dropouth.forward(x, 0.5, 'Seed', Inf, 'Position', 0), 'dropouth:badSeed', '2^53'
    @() dropouth.forward(x, 0.5, 'Seed', [1 2], 'Position', 0), 'dropouth:badSeed', 'scalar'
    @() dropouth.forward(x, 0.5, 'Seed', 'a', 'Position', 0), 'dropouth:badSeed', 'Seed'
    @() dropouth.forward(x, 0.5, 'Seed', int32(-1), 'Position', 0), 'dropouth:badSeed', 'int32'
    @() dropouth.forward(x, 0.5, 'Seed', int64(5), 'Position', 0), 'dropouth:badSeed', 'saturates'
    @() dropouth.forward(x, 0.5, c{:}, 'Stream', uint8(5)),   'dropouth:badStream', 'uint8'
    @() dropouth.mask([2 2], 0.5, 'Seed', 1, 'Position', uint32(7)), 'dropouth:badPosition', 'uint32'
    @() dropouth.forward(x, 0.5, 'Seed', 1 + 2i, 'Position', 0), 'dropouth:badSeed', 'Seed'
    @() dropouth.forward(x, 0.5, 'Seed', single(3), 'Position', 0), 'dropouth:badSeed', 'uint64'
    @() dropouth.forward(x, 0.5, 'Seed', true, 'Position', 0), 'dropouth:badSeed', 'got a logical'
    @() dropouth.forward(x, 0.5, c{:}, 'Stream', 2^60),      'dropouth:badStream', 'Stream'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', 2^53), 'dropouth:badPosition', 'Position'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', big), 'dropouth:badPosition', '2^64'
    @() dropouth.backward(x, 0.5, 'Seed', 1, 'Position', big - 22), 'dropouth:badPosition', '2^64'
    @() dropouth.mask([1 2], 0.5, 'Seed', 1, 'Position', big), 'dropouth:badPosition', '2^64'
    @() dropouth.stream_u32([1 2], 'Seed', 1, 'Position', big), 'dropouth:badPosition', '2^64'
    @() dropouth.uniform([1 2], 'Seed', 1, 'Position', bitshift(uint64(1), 63) - 1), 'dropouth:badPosition', '2^63'
    @() dropouth.forward(x, 0.5, c{:}, 'Bits', 12),          'dropouth:badBits', 'Bits'
    @() dropouth.forward(x, 0.5, c{:}, 'Bits', 8.5),         'dropouth:badBits', 'Bits'
    @() dropouth.realised_p(0.5, 'Bits', 64),                'dropouth:badBits', 'Bits'
    @() dropouth.forward(x, 0.5, 'Position', 0),             'dropouth:missingSeed', 'Seed'
    @() dropouth.forward(x, 0.5, 'Seed', 1),                 'dropouth:missingPosition', 'Position'
    @() dropouth.backward(x, 0.5),                           'dropouth:missingSeed', 'Seed'
    @() dropouth.forward(x, 0.5, 'Sed', 1, 'Position', 0),   'dropouth:badOption', 'Sed'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position'),     'dropouth:badOption', 'Position'
    @() dropouth.forward(x, 0.5, 3, 1, 'Position', 0),       'dropouth:badOption', 'option name'
    @() dropouth.stream_u32([2 2], c{:}, 'Bits', 8),         'dropouth:badOption', 'Bits'
    @() dropouth.uniform([2 2], 'int8', c{:}),               'dropouth:badOption', 'int8'
    @() dropouth.mask([-1 2], 0.5, c{:}),                    'dropouth:badSize', 'negative'
    @() dropouth.mask([2.5 2], 0.5, c{:}),                   'dropouth:badSize', 'sz(1)'
    @() dropouth.mask([], 0.5, c{:}),                        'dropouth:badSize', 'sz'
    @() dropouth.mask(ones(2, 2), 0.5, c{:}),                'dropouth:badSize', 'sz'
    @() dropouth.mask([1e300 1e300], 0.5, c{:}),             'dropouth:badSize', 'sz'
    @() dropouth.forward(x),                                 'dropouth:badArgs', 'p'
    @() dropouth.forward(x, 0.5, c{:}, repmat('Position', 1, 5), 1), 'dropouth:badOption', 'more than 31'
    @() dropouth.forward(x, 0.5, ['Seed' char(0) 'x'], 1, 'Position', 0), 'dropouth:badOption', 'NUL'
    @() dropouth.realised_p(0.5, ['Bits' char(0)], 8),       'dropouth:badOption', 'Bits'
    @() dropouth.mask(single([2.5 2]), 0.5, c{:}),           'dropouth:badSize', 'sz(1)'
    @() dropouth.mask(single([-1 2]), 0.5, c{:}),            'dropouth:badSize', 'negative'
    @() dropouth_mex('forward', x, 0.5, c{:}),               'dropouth:staleBuild', 'no protocol: 0.9.0'
    @() dropouth_mex('forward/1', x, 0.5, c{:}),             'dropouth:staleBuild', 'run dropouth_build'
    @() dropouth_mex(2, 'forward', x, 0.5, c{:}),            'dropouth:badCommand', 'dropouth.forward'
    @() dropouth_mex('nope/3'),                              'dropouth:badCommand', 'unknown command'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', struct('Position', uint64(4))), 'dropouth:badPosition', 'Position and Bits'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', struct('Position', 4, 'Width', 8)), 'dropouth:badPosition', 'no field ''Bits'''
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', struct('Position', 4, 'Bits', 7)), 'dropouth:badPosition', 'next.Bits'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', struct('Position', -4, 'Bits', 8)), 'dropouth:badPosition', 'next.Position'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', struct('Position', big - 1, 'Bits', 32)), 'dropouth:badPosition', 'no 8-bit position'
    @() dropouth.stream_u32(3, 'Seed', 1, 'Position', struct('Position', 4, 'Bits', 8)), 'dropouth:badPosition', 'stream words'
    @() dropouth.forward(x, 1 + eps, c{:}),                  'dropouth:badP', '1.0000000000000002'
    @() dropouth.mask([2 Inf], 0.5, c{:}),                   'dropouth:badSize', 'sz(2) is too large'
    @() dropouth.forward(x, 0.5, c{:}, 'Bits', single(16)),  'dropouth:badBits', 'got a single'
    @() dropouth.realised_p(0.5, 'Bits', single(16)),        'dropouth:badBits', 'got a single'
    @() dropouth.backward(permute(x, [2 1 3]), plan_of(x)),  'dropouth:badDy', 'dy is 3x2x4, the forward''s x was 2x3x4'
    @() dropouth.backward(x(:), plan_of(x)),                 'dropouth:badDy', 'dy is 24x1'
    @() dropouth.backward(x, plan_of(x), 'Seed', 1),         'dropouth:badArgs', 'no options'
    @() dropouth.backward(x, struct('Seed', 1)),             'dropouth:badPlan', 'fourth output'
    @() dropouth.backward(x, [plan_of(x) plan_of(x)]),       'dropouth:badPlan', '1x1 struct'
    @() dropouth.backward(x, plan_with(x, 'Size', [])),      'dropouth:badDy', 'plan.Size'
    @() dropouth.backward(x, plan_with(x, 'Position', -1)),  'dropouth:badPlan', 'plan.Position is negative'
    @() dropouth.backward(x, plan_with(x, 'Seed', int8(1))), 'dropouth:badPlan', 'plan.Seed'
    @() dropouth.backward(x, plan_with(x, 'Bits', 12)),      'dropouth:badPlan', 'plan.Bits'
    @() dropouth.backward(x, plan_with(x, 'P', 2)),          'dropouth:badPlan', 'plan.P must be in [0, 1]'
    @() dropouth.backward(x, plan_with(x, 'P', [0.5 0.5])),  'dropouth:badPlan', 'plan.P must be a real double'
    % P and Bits no forward hands out together (was pNeedsMoreBits, advising 'Bits', which a plan call refuses)
    @() dropouth.backward(x, plan_with(x, 'P', 1e-12)),      'dropouth:badPlan', 'plan.P = 9.9999999999999998e-13 with plan.Bits = 8'
    @() dropouth.backward(x, plan_with(x, 'P', 0.1)),        'dropouth:badPlan', 'give its fourth output unchanged'
    @() dropouth.backward(x, rmfield(plan_of(x), 'Bits')),   'dropouth:badPlan', 'fourth output'
    @() dropouth.forward(x, 0.5, 'Seed', 1, 'Position', intmax('uint32')), 'dropouth:badPosition', 'saturates'
    @() dropouth.mask([2 2], 0.5, 'Seed', 1, 'Position', intmax('int16')), 'dropouth:badPosition', 'saturates'
    @() dropouth.stream_u32([2 2], 'Seed', 1, 'Position', intmax('uint8')), 'dropouth:badPosition', 'uint64'
    @() dropouth.forward(single(3), 0.5, 'Seed', 1, 'Position', big), 'dropouth:badPosition', 'last position'
    @() dropouth.mask([1 1], 0.5, 'Seed', 1, 'Position', big + 5), 'dropouth:badPosition', 'same mask at every later step'
    @() dropouth.uniform(1, 'Seed', 1, 'Position', intmax('uint64')), 'dropouth:badPosition', 'last position'
  };
  nfail = 0;
  for k = 1:rows(bad)
    out = 'untouched';
    try
      out = bad{k, 1}();
      printf('FAIL octave errors: %s returned instead of raising %s\n', func2str(bad{k, 1}), bad{k, 2});
      nfail = nfail + 1;
    catch e
      if ~strcmp(e.identifier, bad{k, 2}) || isempty(strfind(e.message, bad{k, 3}))
        printf('FAIL octave errors: %s raised [%s] "%s"; expected [%s] naming "%s"\n', func2str(bad{k, 1}), ...
               e.identifier, e.message, bad{k, 2}, bad{k, 3});
        nfail = nfail + 1;
      elseif ~strcmp(out, 'untouched')
        printf('FAIL octave errors: %s assigned its output\n', func2str(bad{k, 1}));
        nfail = nfail + 1;
      end
    end
  end
  if nfail == 0
    printf('PASS octave errors: %d bad calls raise their identifier, name the argument, assign nothing\n', rows(bad));
  end

  % spellings that must give the plain call's bits
  ref = dropouth.forward(x, 0.5, 'Seed', 5, 'Position', 7);
  same = {
    'uint64 seed and position',   dropouth.forward(x, 0.5, 'Seed', uint64(5), 'Position', uint64(7))
    'names in any case',          dropouth.forward(x, 0.5, 'seed', 5, 'POSITION', 7)
    'the last of a repeated name', dropouth.forward(x, 0.5, 'Seed', 9, 'Position', 7, 'Seed', 5)
    'Stream 0 given',             dropouth.forward(x, 0.5, 'Seed', 5, 'Position', 7, 'Stream', 0)
    'p as a single',              dropouth.forward(x, single(0.5), 'Seed', 5, 'Position', 7)
    'the default width of 0.5 (8)', dropouth.forward(x, 0.5, 'Seed', 5, 'Position', 7, 'Bits', 8)
    'x as a row, reshaped back',  reshape(dropouth.forward(x(:).', 0.5, 'Seed', 5, 'Position', 7), size(x))
    'the mask of a single sz, as zeros(single(sz)) takes it', dropouth.forward(x, 0.5, 'Seed', 5, 'Position', 7) .* ...
                                    (dropouth.mask(single(size(x)), 0.5, 'Seed', 5, 'Position', 7) | true)
    'two halves at positions 7 and 19', cat(3, dropouth.forward(x(:, :, 1:2), 0.5, 'Seed', 5, 'Position', 7), ...
                                            dropouth.forward(x(:, :, 3:4), 0.5, 'Seed', 5, 'Position', 19))
  };
  bad_same = {};
  for k = 1:rows(same)
    if ~isequal(typecast(same{k, 2}(:), 'uint32'), typecast(ref(:), 'uint32')), bad_same{end + 1} = same{k, 1}; end
  end
  if isempty(bad_same)
    printf('PASS octave spellings: %d ways to write one call give its bits (uint64, case, repeats, chunks)\n', rows(same));
  else
    printf('FAIL octave spellings: these differ from the plain call: %s\n', strjoin(bad_same, '; '));
  end

  % the forward's third output: where the layer's next call starts, with the width it counts;
  % the next step from it draws another mask, the same position again the same one
  [y1, ~, nx] = dropouth.forward(x, 0.5, 'Seed', 5, 'Position', uint64(7));
  [y2, ~, nx2] = dropouth.forward(x, 0.5, 'Seed', 5, 'Position', nx);
  if isstruct(nx) && isequal(fieldnames(nx), {'Position'; 'Bits'}) && isa(nx.Position, 'uint64') ...
     && nx.Position == uint64(31) && nx.Bits == 8 && nx2.Position == uint64(55) && isequal(y1, ref) && ~isequal(y2, y1)
    printf('PASS octave next position: [y, mask, next] gives next.Position = pos + numel(x) as a uint64 (7 + 24 = 31) and next.Bits = 8, and the step from it draws another mask\n');
  else
    printf('FAIL octave next position: next %s, then %s\n', disp_next(nx), disp_next(nx2));
  end

  % one next passed through calls of other widths on one stream (p = 0.5 draws 8 bits, p = 0.3
  % 16): each call starts past every word the calls before it drew, at the positions a C
  % generator (dropout_gen_plan) and Python's dropouth.Generator hand out for these widths
  % in this order (0, 2048, 12288, 8192), and its bits are the call's at that position given
  % as a number. A bare number would have read, at the second 8-bit call, the words of the
  % first 16-bit one.
  n = 4096; nx = uint64(0); got = []; words = zeros(0, 2); same = true;
  for pk = [0.5 0.3 0.5 0.3]
    [y, ~, nxt, pl] = dropouth.forward(ones(1, n), pk, 'Seed', 7, 'Position', nx);
    same = same && isequal(y, dropouth.forward(ones(1, n), pk, 'Seed', 7, 'Position', pl.Position));
    same = same && isequal(y, dropouth.backward(ones(1, n), pk, 'Seed', 7, 'Position', nx));
    got(end + 1) = double(pl.Position);
    words(end + 1, :) = double(pl.Position) * pl.Bits / 32 + [0, n * pl.Bits / 32];   % [first, end) word
    nx = nxt;
  end
  w = sortrows(words);
  if isequal(got, [0 2048 12288 8192]) && all(w(2:end, 1) >= w(1:end - 1, 2)) && same
    printf('PASS octave next across widths: a next handed from 8-bit to 16-bit draws and back starts past every word drawn (positions 0 2048 12288 8192, as dropout_gen_plan), with the bits of those positions; the backward from next rebuilds them\n');
  else
    printf('FAIL octave next across widths: positions %s (expected 0 2048 12288 8192), words disjoint %d, same bits %d\n', ...
           mat2str(got), all(w(2:end, 1) >= w(1:end - 1, 2)), same);
  end

  % the forward's plan: the backward from it is the backward given the same options, for a
  % double and a single p, the default and an explicit width, a 3-D x and an empty one; and
  % the plan holds what the forward drew with (the position of this call, not the next)
  cases = {0.3, {}; single(0.3), {}; 0.1, {'Bits', 32}; 0.5, {'Stream', uint64(3)}; 1e-4, {}};
  plan_ok = true;
  for k = 1:rows(cases)
    for xs = {x, zeros(0, 3), reshape(1:30, 5, 1, 6)}
      opts = [{'Seed', uint64(11), 'Position', uint64(40)}, cases{k, 2}];
      [~, ~, nx, pl] = dropouth.forward(xs{1}, cases{k, 1}, opts{:});
      a = dropouth.backward(2 * xs{1} + 1, pl);
      b = dropouth.backward(2 * xs{1} + 1, cases{k, 1}, opts{:});
      plan_ok = plan_ok && isequal(typecast(a(:), 'uint8'), typecast(b(:), 'uint8')) && isequal(size(a), size(xs{1})) ...
                && pl.Position == uint64(40) && nx.Position == uint64(40 + numel(xs{1})) && strcmp(class(pl.P), class(cases{k, 1})) ...
                && isequal(pl.Size, size(xs{1}));
    end
  end
  [~, ~, ~, pl] = dropouth.forward(x, 0.3, c{:});
  [~, ~, ~, pl8] = dropouth.forward(x, 0.5, c{:});
  plan_ok = plan_ok && pl.Bits == 16 && pl8.Bits == 8;
  if plan_ok
    printf('PASS octave plan: dropouth.backward(dy, plan) equals the backward given the forward''s options (%d p and widths, 3 shapes), plan.Position is the call''s own\n', rows(cases));
  else
    printf('FAIL octave plan: the backward from the forward''s plan differs from the one given its options\n');
  end

  % the edges of the integers: 2^53 - 1 as a double is that uint64; 2^64 - 1 is a seed
  a = dropouth.stream_u32([1 3], 'Seed', 2^53 - 1, 'Position', 2^53 - 1);
  b = dropouth.stream_u32([1 3], 'Seed', uint64(9007199254740991), 'Position', bitshift(uint64(1), 53) - 1);
  w = dropouth.stream_u32([1 2], 'Seed', big, 'Position', big - 1);   % the last two words of a stream
  z = dropouth.stream_u32([1 4], 'Seed', 0, 'Position', 0);
  if isequal(a, b) && numel(w) == 2 && isequal(z, uint32([1713891541 3781805453 3159862348 2600524760]))
    printf('PASS octave integers: 2^53 - 1 as a double and as a uint64 agree, 2^64 - 1 works, word 0 of key 0 is Random123''s 6627e8d5\n');
  else
    printf('FAIL octave integers: 2^53 - 1 double %s, uint64 %s; stream start %s\n', mat2str(a), mat2str(b), mat2str(z));
  end

  % p = 0 copies bit for bit (NaN payload, -0), p = 1 gives +0 everywhere, backward rebuilds
  v = typecast(uint32([2143289345 2147483648 1 2139095040]), 'single');   % NaN payload 1, -0, subnormal, Inf
  y0 = dropouth.forward(v, 0, c{:});
  y1 = dropouth.forward(v, 1, c{:});
  [yf, m] = dropouth.forward(ones(300, 7), 0.3, c{:});
  dx = dropouth.backward(ones(300, 7), 0.3, c{:});
  [q, bits] = dropouth.realised_p(0.3);
  ok = isequal(typecast(y0, 'uint32'), typecast(v, 'uint32')) && isequal(typecast(y1, 'uint32'), uint32([0 0 0 0])) ...
       && isequal(dx ~= 0, m) && isequal(yf ~= 0, m) && all(dx(m) == 1 / (1 - q)) && bits == 16 ...
       && q == 19661 / 65536 && isequal(dropouth.mask([300 7], 0.3, c{:}), m);
  if ok
    printf('PASS octave semantics: p = 0 copies bits, p = 1 gives +0, backward rebuilds the forward mask, kept scale 1/(1 - q)\n');
  else
    printf('FAIL octave semantics: p = 0 / p = 1 / backward mask / scale / realised_p(0.3) = %.17g at %d bits\n', q, bits);
  end

  % the sizes of the outputs follow zeros(sz): a scalar n is n-by-n
  s1 = size(dropouth.mask(3, 0.5, c{:}));
  s2 = size(dropouth.uniform([2 3 4], 'single', c{:}));
  s3 = size(dropouth.stream_u32([5 1], c{:}));
  s4 = size(dropouth.forward(zeros(0, 3), 0.5, c{:}));
  s5 = class(dropouth.uniform(2, c{:}));
  if isequal(s1, [3 3]) && isequal(s2, [2 3 4]) && isequal(s3, [5 1]) && isequal(s4, [0 3]) && strcmp(s5, 'double')
    printf('PASS octave sizes: sz as zeros(sz) takes it (scalar n: n-by-n), empty arrays, uniform double by default\n');
  else
    printf('FAIL octave sizes: %s %s %s %s %s\n', mat2str(s1), mat2str(s2), mat2str(s3), mat2str(s4), s5);
  end

  % help text: every function documents itself (help dropouth.forward)
  names = {'forward', 'backward', 'mask', 'stream_u32', 'uniform', 'realised_p', 'version'};
  missing = {};
  for k = 1:numel(names)
    t = get_help_text(['dropouth.' names{k}]);
    if numel(t) < 40, missing{end + 1} = names{k}; end
  end
  t = get_help_text('dropouth.forward');
  if isempty(missing) && ~isempty(strfind(t, '''Seed''')) && ~isempty(strfind(t, 'dropouth:badP'))
    printf('PASS octave help: help dropouth.NAME documents all %d functions\n', numel(names));
  else
    printf('FAIL octave help: no help text for: %s\n', strjoin(missing, ', '));
  end
  if strcmp(dropouth.version(), getenv('DROPOUT_VERSION'))
    printf('PASS octave version: dropouth.version() is dropout.h''s %s\n', dropouth.version());
  else
    printf('FAIL octave version: dropouth.version() is %s, dropout.h says %s\n', dropouth.version(), getenv('DROPOUT_VERSION'));
  end
end

function y = dropouth_next(x, pos)
% the three-output forward at a position where pos + numel(x) = 2^64: no next position
  [y, ~, ~] = dropouth.forward(x, 0.5, 'Seed', 1, 'Position', pos);
end

function plan = plan_of(x)
% the forward's plan for x (the backward's other form takes it)
  [~, ~, ~, plan] = dropouth.forward(x, 0.5, 'Seed', 1, 'Position', 0);
end

function plan = plan_with(x, field, value)
% a plan edited by hand: the backward checks its fields as it checks the options
  plan = plan_of(x);
  plan.(field) = value;
end

function t = disp_next(nx)
% a next for a FAIL line, whatever it is
  if isstruct(nx) && isfield(nx, 'Position') && isfield(nx, 'Bits')
    t = sprintf('{Position %s, Bits %g}', sprintf('%u', nx.Position), double(nx.Bits));
  else
    t = sprintf('a %s', class(nx));
  end
end
