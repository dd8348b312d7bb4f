# tests/docs/api_names.awk - prints the name of every function a header declares with
# DROPOUTDEF or DROPOUT_CUDADEF, one a line, with the names that macros build by token
# pasting (NAME##suffix inside "#define M(suffix, ...)") expanded for every "M(f32, ...)"
# line that instantiates the macro. Used by tests/docs/suite.sh.
function defname(decl,   s) { s = decl; sub(/\(.*/, "", s); sub(/.*[ *]/, "", s); return s }
function take(line, macro,   x) {
   x = line
   sub(/^.*(DROPOUTDEF|DROPOUT_CUDADEF) /, "", x)
   if (x !~ /\(/) return
   if (macro == "") print defname(x)
   else tmpl[macro] = tmpl[macro] " " defname(x)
}
{
   line = $0
   if (inmac) {
      if (line ~ /(DROPOUTDEF|DROPOUT_CUDADEF) /) take(line, mac)
      if (line !~ /\\$/) inmac = 0
      next
   }
   if (line ~ /^#define [A-Za-z_0-9]+\(/) {
      mac = line; sub(/^#define /, "", mac); sub(/\(.*/, "", mac)
      p = line; sub(/^#define [A-Za-z_0-9]+\(/, "", p); sub(/[,)].*/, "", p); param[mac] = p
      if (line ~ /(DROPOUTDEF|DROPOUT_CUDADEF) /) take(line, mac)
      inmac = line ~ /\\$/
      next
   }
   if (line ~ /^[A-Za-z_0-9]+\([A-Za-z_0-9]+,/) {
      m = line; sub(/\(.*/, "", m)
      s = line; sub(/^[A-Za-z_0-9]+\(/, "", s); sub(/,.*/, "", s)
      inst[m] = inst[m] " " s
      next
   }
   if (line ~ /^[ \t]*(DROPOUTDEF|DROPOUT_CUDADEF) /) take(line, "")
}
END {
   for (m in tmpl) {
      n = split(tmpl[m], t, " "); k = split(inst[m], sfx, " ")
      for (i = 1; i <= n; ++i)
         for (j = 1; j <= k; ++j) {
            name = t[i]; gsub("##" param[m] "##", sfx[j], name); gsub("##" param[m], sfx[j], name)
            print name
         }
   }
}
