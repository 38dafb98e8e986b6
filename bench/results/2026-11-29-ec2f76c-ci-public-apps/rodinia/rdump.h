/* sweep harness: dump result arrays (host-side only) to $RODINIA_DUMP */
#ifndef RDUMP_H
#define RDUMP_H
#include <stdio.h>
#include <stdlib.h>
static void rdump(const void *p, size_t bytes) {
  const char *f = getenv("RODINIA_DUMP");
  if (!f || !*f) return;
  FILE *o = fopen(f, "ab");
  if (!o) { perror("rdump"); return; }
  fwrite(p, 1, bytes, o);
  fclose(o);
}
#endif
/* bulk variant: keep one FILE open across calls (rdump_open/rdump_put/rdump_close) */
static FILE *rdump_open(void) { const char *f = getenv("RODINIA_DUMP"); return (f && *f) ? fopen(f, "ab") : NULL; }
static void rdump_put(FILE *o, const void *p, size_t bytes) { if (o) fwrite(p, 1, bytes, o); }
static void rdump_close(FILE *o) { if (o) fclose(o); }
