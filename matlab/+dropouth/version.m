function v = version()
%VERSION  The version of dropout.h this binding was built with (DROPOUT_VERSION_STRING).
%   v = dropouth.version()
  try
    v = dropouth_mex('version/3');
  catch err
    dropouth_rethrow(err);
  end
end
