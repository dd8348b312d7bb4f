function w = stream_u32(sz, varargin)
%STREAM_U32  The raw stream: 32-bit Philox4x32-10 words as a uint32 array.
%   W = dropouth.stream_u32(SZ, 'Seed', S, 'Position', POS) holds words POS, POS + 1, ...
%   of stream 'Stream' (default 0) under seed S, in linear-index order: W(k) is word
%   POS + k - 1. These are the words cuRAND returns after curand_init(S, stream, POS)
%   (docs/SPEC.md section 2). SZ as zeros(SZ) takes it (a scalar N is N-by-N).
%
%   See also dropouth.uniform.
  if nargin < 1, error('dropouth:badArgs', 'dropouth.stream_u32: needs sz (help dropouth.stream_u32)'); end
  for k = 1:numel(varargin)                   % "Seed" (a string) as 'Seed'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  try
    w = dropouth_mex('stream_u32/3', sz, varargin{:});
  catch err
    dropouth_rethrow(err);
  end
end
