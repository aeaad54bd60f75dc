/* diag_log.c: diagnostics for tools: kept (DiagLog) instead of printed, then
 * written as gcc writes them with -fdiagnostics-format=json (an array of
 * diagnostics, notes as their children) or as a SARIF 2.1.0 log
 * (one run over the inputs), both with the warnings' option names. */
#include "parrayc.h"

#include <stdlib.h>
#include <string.h>

void diag_log_add(DiagLog *log, const char *kind, const char *file, int line, int col, const char *msg,
                  const char *option)
{
  if (log->n == log->cap) {
    log->cap = log->cap ? 2 * log->cap : 16;
    log->v = realloc(log->v, sizeof *log->v * (size_t)log->cap);
  }
  DiagRec *r = &log->v[log->n];
  snprintf(r->kind, sizeof r->kind, "%s", kind);
  r->file = strdup(file ? file : "");
  r->msg = strdup(msg);
  r->option = option ? strdup(option) : NULL;
  r->line = line;
  r->col = col;
  r->parent = -1;
  if (!strcmp(kind, "note"))
    for (int i = log->n - 1; i >= 0; i--)
      if (log->v[i].parent < 0 && strcmp(log->v[i].kind, "note")) {
        r->parent = i;
        break;
      }
  log->n++;
}

void diag_log_append(DiagLog *to, const DiagLog *from)
{
  int base = to->n;
  for (int i = 0; i < from->n; i++) {
    const DiagRec *r = &from->v[i];
    diag_log_add(to, r->kind, r->file, r->line, r->col, r->msg, r->option);
    to->v[to->n - 1].parent = r->parent < 0 ? -1 : base + r->parent;
  }
}

bool diag_log_has_error(const DiagLog *log)
{
  for (int i = 0; i < log->n; i++)
    if (!strcmp(log->v[i].kind, "error"))
      return true;
  return false;
}

void diag_log_free(DiagLog *log)
{
  for (int i = 0; i < log->n; i++) {
    free(log->v[i].file);
    free(log->v[i].msg);
    free(log->v[i].option);
  }
  free(log->v);
  log->v = NULL;
  log->n = log->cap = 0;
}

/* The length of the well-formed UTF-8 sequence at p (1 to 4), or 0. */
static int utf8_length(const unsigned char *p)
{
  int n = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3
        : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
  for (int k = 1; k < n; k++)
    if ((p[k] & 0xc0) != 0x80)
      return 0;
  if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) || (p[0] == 0xf0 && p[1] < 0x90) ||
      (p[0] == 0xf4 && p[1] > 0x8f))
    return 0; /* overlong, a surrogate, past U+10FFFF */
  return n;
}

/* s as a JSON string: valid whatever the bytes (a file name need not be
 * UTF-8): a byte that starts no UTF-8 character is written as the code
 * point of its value (\u00XX, as Latin-1 reads it). */
static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    int n = utf8_length(p);
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", f);
    else if (*p == '\t')
      fputs("\\t", f);
    else if (*p < 0x20 || *p == 0x7f || n == 0)
      fprintf(f, "\\u%04x", *p);
    else
      fwrite(p, 1, (size_t)n, f);
    p += n ? n : 1;
  }
  fputc('"', f);
}

/* A file name as a SARIF uri (a relative reference, RFC 3986): every
 * byte but the unreserved ones and '/' percent-encoded. */
static void json_uri(FILE *f, const char *path)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)path; *p; p++)
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
      fputc(*p, f);
    else
      fprintf(f, "%%%02X", *p);
  fputc('"', f);
}

/* One diagnostic in gcc's shape: kind, message, locations (a caret),
 * children (its notes), column-origin, escape-source. */
static void json_rec(const DiagLog *log, int i, FILE *f)
{
  const DiagRec *r = &log->v[i];
  fputs("{\"kind\": ", f);
  json_str(f, r->kind);
  fputs(", \"message\": ", f);
  json_str(f, r->msg);
  if (r->option) {
    fputs(", \"option\": ", f);
    json_str(f, r->option);
  }
  fputs(", \"locations\": [", f);
  if (r->line > 0) {
    fputs("{\"caret\": {\"file\": ", f);
    json_str(f, r->file);
    fprintf(f, ", \"line\": %d, \"display-column\": %d, \"byte-column\": %d, \"column\": %d}}", r->line, r->col,
            r->col, r->col);
  }
  fputs("], \"children\": [", f);
  bool first = true;
  for (int k = i + 1; k < log->n; k++)
    if (log->v[k].parent == i) {
      fputs(first ? "" : ", ", f);
      json_rec(log, k, f);
      first = false;
    }
  fputs("], \"column-origin\": 1, \"escape-source\": false}", f);
}

void diag_log_json(const DiagLog *log, FILE *f)
{
  fputc('[', f);
  bool first = true;
  for (int i = 0; i < log->n; i++)
    if (log->v[i].parent < 0) {
      fputs(first ? "" : ", ", f);
      json_rec(log, i, f);
      first = false;
    }
  fputs("]\n", f);
}

/* A SARIF location: the file and region, with a message for a note. */
static void sarif_location(const DiagRec *r, bool with_message, FILE *f)
{
  fputc('{', f);
  if (r->line > 0 || *r->file) {
    fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", f);
    json_uri(f, r->file);
    fputc('}', f);
    if (r->line > 0) {
      fprintf(f, ", \"region\": {\"startLine\": %d", r->line);
      if (r->col > 0)
        fprintf(f, ", \"startColumn\": %d", r->col);
      fputc('}', f);
    }
    fputc('}', f);
  }
  if (with_message) {
    fputs(r->line > 0 || *r->file ? ", " : "", f);
    fputs("\"message\": {\"text\": ", f);
    json_str(f, r->msg);
    fputc('}', f);
  }
  fputc('}', f);
}

/* Has a record before i the same file (or is it an input)? */
static bool named_before(const DiagLog *log, int i, const char *const *inputs, int n)
{
  const char *file = log->v[i].file;
  for (int k = 0; k < n; k++)
    if (!strcmp(inputs[k], file))
      return true;
  for (int k = 0; k < i; k++)
    if (!strcmp(log->v[k].file, file))
      return true;
  return !*file;
}

/* The rules: the warning options the results name, once each. */
static void sarif_rules(const DiagLog *log, FILE *f)
{
  bool first = true;
  for (int i = 0; i < log->n; i++) {
    const char *opt = log->v[i].option;
    bool seen = !opt;
    for (int k = 0; k < i && !seen; k++)
      seen = log->v[k].option && !strcmp(log->v[k].option, opt);
    if (seen)
      continue;
    fputs(first ? "" : ", ", f);
    first = false;
    fputs("{\"id\": ", f);
    json_str(f, opt);
    fputc('}', f);
  }
}

/* The files named: the inputs first, then the headers (none: no list). */
static void sarif_artifacts(const DiagLog *log, const char *const *inputs, int n, FILE *f)
{
  int listed = 0;
  for (int i = 0; i < n + log->n; i++) {
    const char *file = i < n ? inputs[i] : log->v[i - n].file;
    bool seen = i >= n && named_before(log, i - n, inputs, n);
    for (int k = 0; k < i && k < n && !seen; k++)
      seen = !strcmp(inputs[k], file);
    if (seen)
      continue;
    fputs(listed++ ? ", " : "\"artifacts\": [", f);
    fputs("{\"location\": {\"uri\": ", f);
    json_uri(f, file);
    fputs(i < n ? "}, \"sourceLanguage\": \"parray\"}" : "}}", f);
  }
  if (listed)
    fputs("], ", f);
}

void diag_log_sarif(const DiagLog *log, const char *const *inputs, int n, const char *version, bool ok, FILE *f)
{
  fputs("{\"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json\", "
        "\"version\": \"2.1.0\", \"runs\": [", f);
  fputs("{\"tool\": {\"driver\": {\"name\": \"parrayc\", \"version\": ", f);
  json_str(f, version);
  fputs(", \"rules\": [", f);
  sarif_rules(log, f);
  fprintf(f, "]}}, \"invocations\": [{\"executionSuccessful\": %s}], ", ok ? "true" : "false");
  sarif_artifacts(log, inputs, n, f);
  fputs("\"columnKind\": \"unicodeCodePoints\", \"results\": [", f);
  bool first = true;
  for (int i = 0; i < log->n; i++) {
    const DiagRec *r = &log->v[i];
    if (r->parent >= 0)
      continue;
    fputs(first ? "" : ", ", f);
    first = false;
    fputs("{\"ruleId\": ", f);
    json_str(f, r->option ? r->option : r->kind);
    fprintf(f, ", \"level\": \"%s\", \"message\": {\"text\": ",
            !strcmp(r->kind, "error") ? "error" : !strcmp(r->kind, "warning") ? "warning" : "note");
    json_str(f, r->msg);
    fputs("}, \"locations\": [", f);
    if (r->line > 0 || *r->file)
      sarif_location(r, false, f);
    fputs("], \"relatedLocations\": [", f);
    bool firstnote = true;
    for (int k = i + 1; k < log->n; k++)
      if (log->v[k].parent == i) {
        fputs(firstnote ? "" : ", ", f);
        firstnote = false;
        sarif_location(&log->v[k], true, f);
      }
    fputs("]}", f);
  }
  fputs("]}]}\n", f);
}
