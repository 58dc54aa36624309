/*
 * Runs chDB's libchdb.so as a ClickHouse server for tests.
 *
 *   chdb-server-launcher <path to libchdb.so> <clickhouse-local arguments...>
 *
 * libchdb.so is clickhouse-local; `chdb_query_cmdline` takes its command line. Given
 * `--http_port`/`--tcp_port` and a multiquery that starts with `SYSTEM START LISTEN HTTP` and
 * `SYSTEM START LISTEN TCP`, it serves ClickHouse's HTTP and native interfaces for as long as the
 * multiquery runs, so the last query is one that never ends. The server lives until it is
 * killed; no signal handler is installed, so SIGTERM ends it like SIGKILL does (finished inserts
 * are on disk either way).
 *
 * The library is opened with dlopen rather than linked, so that the compiled launcher does not
 * depend on where node_modules is. A C program's main thread has the ordinary 8 MiB stack that
 * ClickHouse's stack-size check expects (an FFI call from Node's thread fails that check).
 */
#include <dlfcn.h>
#include <stdio.h>

/* From chdb.h: the result is opaque here; only its error text is read. */
typedef void *(*chdb_query_cmdline_fn)(int argc, char **argv);
typedef const char *(*chdb_result_error_fn)(void *result);

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <libchdb.so> <clickhouse-local arguments...>\n", argv[0]);
    return 2;
  }
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (library == NULL) {
    fprintf(stderr, "chdb-server-launcher: cannot load %s: %s\n", argv[1], dlerror());
    return 2;
  }
  chdb_query_cmdline_fn query_cmdline = (chdb_query_cmdline_fn)dlsym(library, "chdb_query_cmdline");
  chdb_result_error_fn result_error = (chdb_result_error_fn)dlsym(library, "chdb_result_error");
  if (query_cmdline == NULL || result_error == NULL) {
    fprintf(stderr, "chdb-server-launcher: %s does not export chdb_query_cmdline/chdb_result_error\n", argv[1]);
    return 2;
  }

  /* clickhouse-local reads argv[0] as its program name; the library path takes that slot. */
  argv[1] = "clickhouse";
  void *result = query_cmdline(argc - 1, argv + 1);

  /* The keep-alive query never finishes, so getting here means the server did not run: a bad
   * argument, a data dir another server holds (ClickHouse prints those itself, and the result
   * may carry no error), or a query that failed. */
  const char *error = result == NULL ? "chdb_query_cmdline returned no result" : result_error(result);
  fprintf(stderr, "chdb-server-launcher: the server's queries ended%s%s\n", error == NULL ? "" : ": ", error == NULL ? "" : error);
  return 1;
}
