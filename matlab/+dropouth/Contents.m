% dropouth - dropout.h's reproducible dropout for MATLAB and GNU Octave
%
% A mask is a function of (seed, stream, position, p, draw width) and nothing else: the same
% in MATLAB, Octave, C, Python (NumPy, PyTorch), CUDA, OpenCL and the browser.
%
%   [y, mask] = dropouth.forward(x, p, 'Seed', s, 'Position', pos)  dropout; mask optional
%   [y, mask, next, plan] = dropouth.forward(...)                    and the next position, the plan
%   dx   = dropouth.backward(dy, plan)                               its gradient, from the forward's plan
%   dx   = dropouth.backward(dy, p, 'Seed', s, 'Position', pos)     its gradient, mask rebuilt
%   mask = dropouth.mask(sz, p, 'Seed', s, 'Position', pos)         the keep decisions alone
%   w    = dropouth.stream_u32(sz, 'Seed', s, 'Position', pos)      raw Philox4x32-10 words
%   u    = dropouth.uniform(sz, 'Seed', s, 'Position', pos)         exact uniforms in [0, 1)
%   [q, bits] = dropouth.realised_p(p)                              the p the draws realise
%   v    = dropouth.version()                                       the header's version
%
% Options: 'Seed' and 'Position' (required; a number, or a forward's next), 'Stream'
% (default 0), 'Bits' (8, 16, 32).
% x(k) takes stream position pos + k - 1 (linear index, column-major).
% Build the MEX gateway once with dropouth_build; docs/MATLAB.md in the repository.
