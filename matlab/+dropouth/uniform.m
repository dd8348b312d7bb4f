function u = uniform(sz, varargin)
%UNIFORM  Exact uniform numbers in [0, 1) from the stream (0 can occur, unlike rand's (0, 1)).
%   U = dropouth.uniform(SZ, 'Seed', S, 'Position', POS) is a double array of size SZ:
%   U(k) is built from the two words 2(POS + k - 1) and 2(POS + k - 1) + 1, so POS counts
%   doubles (and POS + numel must not pass 2^63: the last double takes words 2^64 - 2, 2^64 - 1).
%   U = dropouth.uniform(SZ, 'single', 'Seed', S, 'Position', POS) is single: U(k) is
%   (word(POS + k - 1) >> 8) * 2^-24, POS counting words.
%   A value can be exactly 0 (one in 2^24 for single, 2^53 for double): -log(U) is then
%   Inf; use 1 - U for (0, 1]. Both are exact (no rounding) and the same in C, Python and on a GPU (docs/SPEC.md
%   section 2). SZ as zeros(SZ) takes it (a scalar N is N-by-N). Options: 'Seed',
%   'Stream' (default 0), 'Position'.
%
%   See also dropouth.stream_u32, dropouth.mask.
  if nargin < 1, error('dropouth:badArgs', 'dropouth.uniform: needs sz (help dropouth.uniform)'); end
  for k = 1:numel(varargin)                   % "Seed" (a string) as 'Seed'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  try
    u = dropouth_mex('uniform/3', sz, varargin{:});
  catch err
    dropouth_rethrow(err);
  end
end
