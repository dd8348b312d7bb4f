/* old_gateway.c - a stand-in for the gateway of dropouth 0.9.0 (matlab/dropouth_mex.c as it
 * was): it took the command's bare name ("forward") and refused any other first argument
 * with dropouth:badCommand, in these words. The suite puts it on the path beside the
 * current +dropouth files, as an old build left there after an update would be, and checks
 * that each call is refused as a stale build rather than served. Any call it accepts
 * returns 0. */
#include <string.h>

#include "mex.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
   static const char *const cmds[7] = { "forward", "backward", "mask", "stream_u32", "uniform",
                                        "realised_p", "version" };
   char cmd[16];
   int i;
   (void)nlhs;
   if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetString(prhs[0], cmd, sizeof cmd) != 0)
      mexErrMsgIdAndTxt("dropouth:badCommand", "%s", "dropouth_mex is the gateway of the +dropouth package: "
                        "call dropouth.forward, dropouth.backward, dropouth.mask, ... (help dropouth)");
   for (i = 0; i < 7; ++i)
      if (strcmp(cmd, cmds[i]) == 0) {
         plhs[0] = mxCreateDoubleScalar(0.0);
         return;
      }
   mexErrMsgIdAndTxt("dropouth:badCommand", "%s", "dropouth_mex: unknown command (call the dropouth.* functions)");
}
