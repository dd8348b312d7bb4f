function dropouth_rethrow(err)
%DROPOUTH_RETHROW  The +dropouth functions' error path (not for direct use).
%   Each package function calls the gateway as dropouth_mex('COMMAND/N', ...), N the
%   package's protocol number (DH_PROTOCOL in dropouth_mex.c), and hands any error here. A
%   gateway built from another version refuses the command: this gateway's own build says
%   dropouth:staleBuild; one of 0.9.0, which knew no protocol, says dropouth:badCommand,
%   turned here into dropouth:staleBuild with the file's path (the gateway's own gets the
%   path added); no gateway on the path is dropouth:notBuilt. Every other error goes on
%   unchanged. (Only the error path comes here: a call that succeeds costs no extra call.)
  if strcmp(err.identifier, 'dropouth:badCommand')
    error('dropouth:staleBuild', ['dropouth: the gateway dropouth_mex on the path (%s) is ' ...
          'another version''s build: run dropouth_build (or make octave) in the checkout ' ...
          'whose matlab/ folder is on the path'], which('dropouth_mex'));
  end
  if strcmp(err.identifier, 'dropouth:staleBuild')
    % which file: a fresh build elsewhere on the path loses to an old one found first
    error('dropouth:staleBuild', '%s (the gateway called: %s; remove it if it is an old build)', ...
          err.message, which('dropouth_mex'));
  end
  if any(strcmp(err.identifier, {'Octave:undefined-function', 'MATLAB:UndefinedFunction'})) ...
      && ~isempty(strfind(err.message, 'dropouth_mex')) && isempty(which('dropouth_mex'))
    error('dropouth:notBuilt', ['dropouth: the gateway dropouth_mex is not on the path: run ' ...
          'dropouth_build in matlab/ (or make octave, and addpath(''build/octave''))']);
  end
  rethrow(err);
end
