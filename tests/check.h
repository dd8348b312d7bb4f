/* check.h - the tests' tiny harness.

   A test program is a list of cases. Each case runs CHECKs and ends with case_end(),
   which prints exactly one line that tests/run.sh counts:
      PASS name
      FAIL name: the first failed check, with its values
      SKIP name: why (a peer or a tool is missing)
   main() returns check_exit() so a crash or a failure also shows in the exit code. */
#ifndef CHECK_H
#define CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check__case_fails;
static int check__total_fails;
static char check__why[512];

static inline void check__fail(const char *file, int line, const char *fmt, ...)
{
   va_list ap;
   int len;
   if (check__case_fails++) return;   /* keep the first failure: it is the cause */
   len = snprintf(check__why, sizeof check__why, "%s:%d: ", file, line);
   if (len < 0 || len >= (int)sizeof check__why) return;
   va_start(ap, fmt);
   vsnprintf(check__why + len, sizeof check__why - (size_t)len, fmt, ap);
   va_end(ap);
}

/* CHECK(cond, "format", args...): the message says what was expected and what came. */
#define CHECK(cond, ...) \
   do { if (!(cond)) check__fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)

static inline void case_end(const char *name)
{
   if (check__case_fails) {
      printf("FAIL %s: %s\n", name, check__why);
      ++check__total_fails;
   } else {
      printf("PASS %s\n", name);
   }
   check__case_fails = 0;
   fflush(stdout);
}

static inline void case_skip(const char *name, const char *why)
{
   printf("SKIP %s: %s\n", name, why);
   fflush(stdout);
}

static inline int check_exit(void) { return check__total_fails ? 1 : 0; }

#endif
