function check_bits(dir)
% check_bits(DIR) - the Octave side of tests/octave/: every call of DIR/cases.txt (written by
% expected.c) through the +dropouth package, its outputs written to DIR/got/ as raw bytes for
% suite.sh to compare with DIR/exp/ byte for byte (NaN payloads and -0 included: no isequal).
% Seeds, streams and positions below 2^53 alternate between a double and a uint64, so both
% ways in are compared; larger ones are built from their 32-bit halves with bitshift.
% Also writes two outputs that must NOT match (suite.sh checks they differ): the row-major
% reading of a 3-D array, and the same call one position later.
  fid = fopen(fullfile(dir, 'cases.txt'), 'r');
  if fid < 0, printf('FAIL octave bits: no %s\n', fullfile(dir, 'cases.txt')); return; end
  n = 0;
  while true
    line = fgetl(fid);
    if ~ischar(line), break; end
    f = strsplit(strtrim(line), ' ');
    name = f{1}; kind = f{2}; cls = f{3};
    p = str2double(f{4}); bits = str2double(f{5});
    seed = u64(f{6}, f{7}, n); stream = u64(f{8}, f{9}, n + 1); pos = u64(f{10}, f{11}, n);
    nd = str2double(f{12});
    sz = cellfun(@str2double, f(13:12 + nd));
    opts = {'Seed', seed, 'Stream', stream, 'Position', pos};
    if bits ~= 0, opts = [opts, {'Bits', bits}]; end
    switch kind
      case {'forward', 'backward'}
        x = reshape(readbin(fullfile(dir, 'in', [name '.x.bin']), cls), sz);
        x0 = x;
        if strcmp(kind, 'forward')
          [y, m] = dropouth.forward(x, p, opts{:});
          y1 = dropouth.forward(x, p, opts{:});     % one output: the same y
          if ~isequal(bytes(y1), bytes(y))
            printf('FAIL octave bits %s: y with one output differs from y with the mask\n', name);
          end
          writebin(fullfile(dir, 'got', [name '.m.bin']), uint8(m(:)));
          if ~islogical(m) || ~isequal(size(m), size(x))
            printf('FAIL octave bits %s: the mask is a %s of size %s\n', name, class(m), mat2str(size(m)));
          end
        else
          y = dropouth.backward(x, p, opts{:});
        end
        if ~strcmp(class(y), cls) || ~isequal(size(y), size(x))
          printf('FAIL octave bits %s: y is a %s of size %s for a %s of size %s\n', name, class(y), ...
                 mat2str(size(y)), cls, mat2str(size(x)));
        end
        if ~isequal(bytes(x), bytes(x0))
          printf('FAIL octave bits %s: the input changed\n', name);
        end
        writebin(fullfile(dir, 'got', [name '.y.bin']), bytes(y));
      case 'mask'
        m = dropouth.mask(sz, p, opts{:});
        if ~islogical(m) || ~isequal(size(m), sz)
          printf('FAIL octave bits %s: the mask is a %s of size %s\n', name, class(m), mat2str(size(m)));
        end
        writebin(fullfile(dir, 'got', [name '.m.bin']), uint8(m(:)));
      case 'u32'
        w = dropouth.stream_u32(sz, opts{:});
        if ~isa(w, 'uint32'), printf('FAIL octave bits %s: a %s\n', name, class(w)); end
        writebin(fullfile(dir, 'got', [name '.y.bin']), bytes(w));
      case 'uniform'
        u = dropouth.uniform(sz, cls, opts{:});
        if ~isa(u, cls), printf('FAIL octave bits %s: a %s\n', name, class(u)); end
        writebin(fullfile(dir, 'got', [name '.y.bin']), bytes(u));
    end
    if strcmp(name, 'pos0d')     % 5x4x3 doubles at position 0: the two mutants
      xr = permute(x, [3 2 1]);                      % the same values, read row-major
      yr = permute(dropouth.forward(xr, p, opts{:}), [3 2 1]);
      writebin(fullfile(dir, 'got', 'mutant_rowmajor.y.bin'), bytes(yr));
      o2 = opts; o2{6} = uint64(pos) + 1;
      writebin(fullfile(dir, 'got', 'mutant_pos.y.bin'), bytes(dropouth.forward(x, p, o2{:})));
    end
    n = n + 1;
  end
  fclose(fid);
  printf('octave ran %d cases\n', n);

  % twins for the Python package (check_python.py): masks at the default width, and an
  % m-by-n array whose row-major twin is the n-by-m transpose
  ps = [0.1 0.3 0.001 0.5 0.77 1e-6 0.999];
  for k = 1:numel(ps)
    m = dropouth.mask([37 11], ps(k), 'Seed', 2024, 'Stream', k, 'Position', 1000 * k);
    writebin(fullfile(dir, 'got', sprintf('twin_mask%d.bin', k)), uint8(m(:)));
  end
  x = dropouth.uniform([37 11], 'Seed', 5, 'Position', 0) - 0.5;
  y = dropouth.forward(x, 0.3, 'Seed', 2024, 'Stream', 9, 'Position', 77);
  writebin(fullfile(dir, 'got', 'twin_x.bin'), bytes(x));
  writebin(fullfile(dir, 'got', 'twin_y.bin'), bytes(y));
end

function v = u64(hi, lo, k)
  hi = str2double(hi); lo = str2double(lo);
  if hi < 2^21 && mod(k, 2) == 0
    v = hi * 2^32 + lo;                              % a double, exact below 2^53
  else
    v = bitor(bitshift(uint64(hi), 32), uint64(lo)); % docs/MATLAB.md's recipe
  end
end

function b = bytes(a)
  b = typecast(a(:), 'uint8');
end

function a = readbin(path, cls)
  fid = fopen(path, 'r');
  a = fread(fid, Inf, ['uint8=>uint8']);
  fclose(fid);
  a = typecast(a, cls);
end

function writebin(path, b)
  fid = fopen(path, 'w');
  fwrite(fid, b, 'uint8');
  fclose(fid);
end
