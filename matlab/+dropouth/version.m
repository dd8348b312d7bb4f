function v = version()
%VERSION  The version of dropout.h this binding was built with (DROPOUT_VERSION_STRING).
%   v = dropouth.version()
  v = dropouth_mex('version');
end
