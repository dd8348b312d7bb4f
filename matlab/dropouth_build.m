function out = dropouth_build(outdir)
%DROPOUTH_BUILD  Compile the MEX gateway of the +dropouth package (matlab/dropouth_mex.c).
%   dropouth_build() builds dropouth_mex next to this file, so that one addpath of this
%   folder gives the package and its gateway. dropouth_build(OUTDIR) builds it in OUTDIR
%   (add that folder to the path too). Returns the file it built.
%
%   GNU Octave: mkoctfile --mex (Debian: apt-get install octave liboctave-dev).
%   MATLAB: mex, with a C compiler set up by `mex -setup C`. dropout.h is the header in the
%   folder above this one (the repository's root); nothing else is needed.
%
%   See also dropouth.forward.
  here = fileparts(mfilename('fullpath'));
  root = fileparts(here);
  if nargin < 1, outdir = here; end
  src = fullfile(here, 'dropouth_mex.c');
  % a gateway this session has loaded stays loaded through a rebuild (Octave warns only when
  % interactive, MATLAB not at all): the old build would go on running, with the old bits
  clear('dropouth_mex');
  if exist('OCTAVE_VERSION', 'builtin')
    out = fullfile(outdir, 'dropouth_mex.mex');
    if ~any(outdir == ' ')
      [msg, status] = mkoctfile('--mex', ['-I' root], src, '-o', out);
    else
      % Octave 7's mkoctfile does not quote -o when it links: a folder with a space in its
      % name fails there, so link in outdir under a plain relative name. (Only then: from
      % outdir a relative folder on the path, addpath('matlab'), is not found, and Octave
      % warns that it removes it, though it finds it again back here.)
      here_now = pwd;  cd(outdir);
      try
        [msg, status] = mkoctfile('--mex', ['-I' root], src, '-o', 'dropouth_mex.mex');
      catch e
        cd(here_now);  rethrow(e);
      end
      cd(here_now);
    end
    if status ~= 0, error('dropouth:build', 'mkoctfile failed:\n%s', msg); end
  else
    mex(['-I' root], src, '-outdir', outdir);
    out = fullfile(outdir, ['dropouth_mex.' mexext]);
  end
end
