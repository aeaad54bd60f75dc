/* diag_log.c: diagnostics for tools: kept (DiagLog) instead of printed, then
 * written as gcc writes them with -fdiagnostics-format=json (an array of
 * diagnostics, notes as their children) or as a SARIF 2.1.0 log
 * (-fdiagnostics-format=sarif-file: one run per translated file). */
#include "parrayc.h"

#include <stdlib.h>
#include <string.h>

void diag_log_add(DiagLog *log, const char *kind, const char *file, int line, int col, const char *msg)
{
  if (log->n == log->cap) {
    log->cap = log->cap ? 2 * log->cap : 16;
    log->v = realloc(log->v, sizeof *log->v * (size_t)log->cap);
  }
  DiagRec *r = &log->v[log->n];
  snprintf(r->kind, sizeof r->kind, "%s", kind);
  r->file = strdup(file ? file : "");
  r->msg = strdup(msg);
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

void diag_log_free(DiagLog *log)
{
  for (int i = 0; i < log->n; i++) {
    free(log->v[i].file);
    free(log->v[i].msg);
  }
  free(log->v);
  log->v = NULL;
  log->n = log->cap = 0;
}

/* s as a JSON string */
static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", f);
    else if (*p == '\t')
      fputs("\\t", f);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
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
    json_str(f, r->file);
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

static void sarif_run(const DiagLog *log, const char *input, const char *version, FILE *f)
{
  fputs("{\"tool\": {\"driver\": {\"name\": \"parrayc\", \"version\": ", f);
  json_str(f, version);
  fputs(", \"rules\": []}}, ", f);
  bool ok = true;
  for (int i = 0; i < log->n; i++)
    if (!strcmp(log->v[i].kind, "error"))
      ok = false;
  fprintf(f, "\"invocations\": [{\"executionSuccessful\": %s}], ", ok ? "true" : "false");
  /* the files named: the input first, then the headers */
  fputs("\"artifacts\": [{\"location\": {\"uri\": ", f);
  json_str(f, input);
  fputs("}, \"sourceLanguage\": \"parray\"}", f);
  for (int i = 0; i < log->n; i++) {
    const char *file = log->v[i].file;
    bool seen = !*file || !strcmp(file, input);
    for (int k = 0; k < i && !seen; k++)
      seen = !strcmp(log->v[k].file, file);
    if (!seen) {
      fputs(", {\"location\": {\"uri\": ", f);
      json_str(f, file);
      fputs("}}", f);
    }
  }
  fputs("], \"columnKind\": \"unicodeCodePoints\", \"results\": [", f);
  bool first = true;
  for (int i = 0; i < log->n; i++) {
    const DiagRec *r = &log->v[i];
    if (r->parent >= 0)
      continue;
    fputs(first ? "" : ", ", f);
    first = false;
    fputs("{\"ruleId\": ", f);
    json_str(f, r->kind);
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
  fputs("]}", f);
}

void diag_log_sarif(const DiagLog *const *logs, const char *const *inputs, int n, const char *version, FILE *f)
{
  fputs("{\"$schema\": \"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json\", "
        "\"version\": \"2.1.0\", \"runs\": [", f);
  for (int i = 0; i < n; i++) {
    fputs(i ? ", " : "", f);
    sarif_run(logs[i], inputs[i], version, f);
  }
  fputs("]}\n", f);
}
