function keep = mask(sz, p, varargin)
%MASK  The keep decisions alone: a logical array, true where dropouth.forward keeps.
%   KEEP = dropouth.mask(SZ, P, 'Seed', S, 'Position', POS) is the mask that
%   dropouth.forward(X, P, ...) with the same options uses for an X of size SZ. SZ is a
%   size vector as zeros(SZ) takes it: [M N ...]; a scalar N means N-by-N (as zeros(N)),
%   so a column of N elements is [N 1]. KEEP(k) takes stream position POS + k - 1.
%
%   Options: 'Seed', 'Stream', 'Position' (a number or a forward's NEXT), 'Bits', as in
%   dropouth.forward.
%
%   Example:
%      keep = dropouth.mask([8 64], 0.5, 'Seed', 2024, 'Position', 0);
%      mean(keep(:))              % about 0.5
%
%   See also dropouth.forward.
  if nargin < 2, error('dropouth:badArgs', 'dropouth.mask: needs sz and p (help dropouth.mask)'); end
  for k = 1:numel(varargin)                   % "Seed" (a string) as 'Seed'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  try
    keep = dropouth_mex('mask/3', sz, p, varargin{:});
  catch err
    dropouth_rethrow(err);
  end
end
