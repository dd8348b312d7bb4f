function [y, mask, next, plan] = forward(x, p, varargin)
%FORWARD  Dropout with dropout.h's mask: the same bits in MATLAB, Octave, C, Python, CUDA.
%   [Y, MASK] = dropouth.forward(X, P, 'Seed', S, 'Position', POS) drops each element of X
%   with probability P and scales the kept ones by 1/Q, Q the keep probability the draws
%   realise (so the mean of Y is X): Y = X .* S, S = 1/Q rounded once (single(1/Q) for a
%   single X; not X ./ Q, which differs in the last bit). Y has the class and size of X; MASK (optional) is a
%   logical array of the same size, true where an element was kept.
%
%   Element X(k) (linear index k, column-major, any number of dimensions) takes the draw
%   at stream position POS + k - 1, so the mask is a function of (S, stream, POS, P, bits)
%   and of nothing else: not the machine, the thread count or the device.
%
%   X      real, full single or double array of any size (not complex, sparse or integer)
%   P      drop probability, a real scalar in [0, 1]; 0 copies X, 1 gives all zeros
%   Name-value options (names are case-insensitive):
%   'Seed'      the seed, an integer in [0, 2^64) (required)
%   'Stream'    the stream number, an integer in [0, 2^64) (default 0): one per layer
%   'Position'  the first stream position, an integer in [0, 2^64) (required), or a
%               forward's NEXT; the next call of a layer starts at POS + numel(X)
%   [Y, MASK, NEXT] = dropouth.forward(...) also returns NEXT, a struct: NEXT.Position =
%   POS + numel(X) (a uint64) and NEXT.Bits, the width it counts. Give NEXT itself as the
%   layer's 'Position' at the next step (the same position again is the same mask again),
%   and keep POS for the backward.
%   [Y, MASK, NEXT, PLAN] = dropouth.forward(...) also returns PLAN, the call's coordinates
%   (a struct: Seed, Stream, Position, P as given, Bits as drawn, Size of X), for the
%   backward: dropouth.backward(DY, PLAN) rebuilds this call's mask with nothing retyped,
%   and refuses a DY of another size than X. ([Y, ~, NEXT, PLAN] if the mask is not needed.)
%   A position is one draw of the call's width (a 32-bit draw is a stream word, an 8-bit
%   one a quarter of a word), so NEXT carries its width: a call of another width given
%   NEXT (a P that changes under the default 'Bits', or one NEXT passed from layer to
%   layer) starts past every word the draws before it reached, as C's dropout_gen_plan
%   does. A number carries no width: a counter kept by hand through calls of different
%   widths reads words an earlier call used (keep one per width, or take NEXT).
%   'Bits'      draw width 8, 16 or 32 (default: the narrowest whose realised p is within
%               0.1% of P, as the Python package chooses, else 32); a width that would
%               realise P or 1 - P as 0 or more than 1% off is an error
%               (dropouth:pNeedsMoreBits)
%   Integers: a uint64, or a double holding an exact integer below 2^53 (larger values:
%   bitor(bitshift(uint64(hi), 32), uint64(lo))). Other integer classes are refused: their
%   arithmetic saturates at intmax, where a counter would repeat masks.
%   P is taken at its value: single(0.999) is another P than 0.999 (at 32-bit draws another
%   rule); give the forward and the backward the same P in the same class.
%
%   There is no default seed or position: a default would give every call the same mask.
%   The backward pass rebuilds the mask from the same coordinates (dropouth.backward).
%   Errors have identifiers (dropouth:badX, dropouth:badP, dropouth:badSeed, ...) and
%   messages that name the argument; a call that errors returns nothing.
%
%   Example:
%      x = ones(4, 3, 'single');
%      [y, keep] = dropouth.forward(x, 0.5, 'Seed', 42, 'Position', 0);
%      dx = dropouth.backward(ones(4, 3, 'single'), 0.5, 'Seed', 42, 'Position', 0);
%      isequal(dx ~= 0, keep)     % 1: the same mask, rebuilt
%      [y, ~, next, plan] = dropouth.forward(x, 0.5, 'Seed', 42, 'Position', 0);
%      dx = dropouth.backward(ones(4, 3, 'single'), plan);   % the same, from the plan
%
%   See also dropouth.backward, dropouth.mask, dropouth.realised_p, dropouth.uniform.
  if nargin < 2, error('dropouth:badArgs', 'dropouth.forward: needs x and p (help dropouth.forward)'); end
  for k = 1:numel(varargin)                   % "Seed" (a string) as 'Seed'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  try
    if nargout < 2
      y = dropouth_mex('forward/3', x, p, varargin{:});
    elseif nargout < 3
      [y, mask] = dropouth_mex('forward/3', x, p, varargin{:});
    elseif nargout < 4
      [y, mask, next] = dropouth_mex('forward/3', x, p, varargin{:});
    else
      [y, mask, next, plan] = dropouth_mex('forward/3', x, p, varargin{:});
    end
  catch err
    dropouth_rethrow(err);
  end
end
