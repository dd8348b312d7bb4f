function dx = backward(dy, p, varargin)
%BACKWARD  The gradient of dropouth.forward, its mask rebuilt from the same coordinates.
%   DX = dropouth.backward(DY, P, 'Seed', S, 'Position', POS) is DY .* S (S = 1/Q rounded
%   once, as in dropouth.forward) where the forward
%   call with the same P, seed, stream, position and bits kept an element, 0 where it
%   dropped one. No mask is stored between forward and backward: the coordinates rebuild
%   it, bit for bit. Give the options the forward call had (Seed, Stream, Position, Bits);
%   DY has the size of the forward's X, single or double.
%
%   Errors: dropouth:badDy (complex, sparse, integer DY), and those of dropouth.forward.
%
%   See also dropouth.forward.
  if nargin < 2, error('dropouth:badArgs', 'dropouth.backward: needs dy and p (help dropouth.backward)'); end
  for k = 1:numel(varargin)                   % "Seed" (a string) as 'Seed'
    if isstring(varargin{k}), varargin{k} = char(varargin{k}); end
  end
  dx = dropouth_mex('backward', dy, p, varargin{:});
end
