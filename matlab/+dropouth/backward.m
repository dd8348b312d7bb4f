function dx = backward(dy, p, varargin)
%BACKWARD  The gradient of dropouth.forward, its mask rebuilt from the same coordinates.
%   DX = dropouth.backward(DY, P, 'Seed', S, 'Position', POS) is DY .* S (S = 1/Q rounded
%   once, as in dropouth.forward) where the forward
%   call with the same P, seed, stream, position and bits kept an element, 0 where it
%   dropped one. No mask is stored between forward and backward: the coordinates rebuild
%   it, bit for bit. Give the options the forward call had (Seed, Stream, Position, Bits);
%   DY has the size of the forward's X, single or double. Nothing here can tell that they
%   are the forward's: the forward's own NEXT in place of POS, another Bits or a single P
%   rebuild another mask. (POS may be the NEXT the forward was given: it moves as there.)
%
%   DX = dropouth.backward(DY, PLAN), PLAN the fourth output of dropouth.forward
%   ([Y, MASK, NEXT, PLAN] = dropouth.forward(...)), takes them from the forward itself:
%   nothing is retyped, and a DY whose size is not X's (a transpose, a reshape) is refused.
%
%   Errors: dropouth:badDy (complex, sparse, integer DY; with a plan, another size than X),
%   dropouth:badPlan (a plan that is not the forward's struct, or a field it would refuse),
%   dropouth:badArgs (options beside a plan), and those of dropouth.forward.
%
%   Example:
%      x = rand(4, 3);
%      [y, ~, next, plan] = dropouth.forward(x, 0.2, 'Seed', 7, 'Position', 0);
%      dx = dropouth.backward(ones(4, 3), plan);     % the forward's mask, from plan
%
%   See also dropouth.forward.
  if nargin < 2, error('dropouth:badArgs', 'dropouth.backward: needs dy and p, or dy and the forward''s plan (help dropouth.backward)'); end
  for k = 1:numel(varargin)                   % "Seed" (a string) as 'Seed'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  try
    dx = dropouth_mex('backward/3', dy, p, varargin{:});
  catch err
    dropouth_rethrow(err);
  end
end
