function [q, bits] = realised_p(p, varargin)
%REALISED_P  The drop probability the draws realise, and the draw width.
%   [Q, BITS] = dropouth.realised_p(P) is round(P * 2^BITS) / 2^BITS for the width that
%   dropouth.forward chooses when 'Bits' is left out (the narrowest of 8, 16 and 32 whose
%   Q is within 0.1% of P, else 32); dropouth.realised_p(P, 'Bits', B) for a given width
%   (an error, dropouth:pNeedsMoreBits, when B would realise P or 1 - P as 0 or more than
%   1% off). Kept elements are scaled by 1 / (1 - Q), rounded once.
%
%   Example:  dropouth.realised_p(0.3, 'Bits', 8)    % 77/256 = 0.30078125
%
%   See also dropouth.forward.
  if nargin < 1, error('dropouth:badArgs', 'dropouth.realised_p: needs p (help dropouth.realised_p)'); end
  for k = 1:numel(varargin)                   % "Bits" (a string) as 'Bits'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  try
    [q, bits] = dropouth_mex('realised_p/3', p, varargin{:});
  catch err
    dropouth_rethrow(err);
  end
end
