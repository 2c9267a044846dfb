#pragma once
/* Start and drive tests/fakes/model_server.py (an OpenAI-compatible server on 127.0.0.1) from a
 * cmocka test: the test starts its own server, switches its mode through POST /control and
 * reads its request counters from GET /stats. */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "src/base/util.h"

typedef struct {
    pid_t pid;
    int port;
    char dir[256];
    char url[64];
} GbTestServer;

static inline bool gb_test_server_start(GbTestServer *s)
{
    memset(s, 0, sizeof *s);
    const char *root = getenv("GB_SOURCE_ROOT");
    if (!root) root = ".";
    snprintf(s->dir, sizeof s->dir, "/tmp/gb_test_server.XXXXXX");
    if (!mkdtemp(s->dir)) return false;
    char script[512], portfile[300];
    snprintf(script, sizeof script, "%s/tests/fakes/model_server.py", root);
    snprintf(portfile, sizeof portfile, "%s/port", s->dir);
    s->pid = fork();
    if (s->pid < 0) return false;
    if (s->pid == 0) {
        execl("/usr/bin/python3", "python3", script, "--port-file", portfile, (char *)NULL);
        _exit(127);
    }
    /* Wait for the port file (the server writes it once it listens). */
    for (int i = 0; i < 1000; i++) {
        FILE *f = fopen(portfile, "r");
        if (f) {
            int ok = fscanf(f, "%d", &s->port);
            fclose(f);
            if (ok == 1 && s->port > 0) {
                snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d", s->port);
                return true;
            }
        }
        int status;
        if (waitpid(s->pid, &status, WNOHANG) == s->pid) return false;
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return false;
}

static inline void gb_test_server_stop(GbTestServer *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
        s->pid = 0;
    }
    char path[300];
    snprintf(path, sizeof path, "%s/port", s->dir);
    unlink(path);
    rmdir(s->dir);
}

static inline size_t gb_test__collect(char *p, size_t size, size_t n, void *user)
{
    gb_str_append_n((GbStr *)user, p, size * n);
    return size * n;
}

/* POST body to path (NULL body: GET). Returns the reply body (owned) or NULL. */
static inline char *gb_test_server_request(const GbTestServer *s, const char *path, const char *body)
{
    CURL *h = curl_easy_init();
    char url[128];
    snprintf(url, sizeof url, "%s%s", s->url, path);
    GbStr out;
    gb_str_init(&out);
    gb_str_append(&out, "");
    struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    if (body) curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, gb_test__collect);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &out);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 10000L);
    CURLcode rc = curl_easy_perform(h);
    curl_slist_free_all(hdr);
    curl_easy_cleanup(h);
    if (rc != CURLE_OK) {
        gb_str_destroy(&out);
        return NULL;
    }
    return gb_str_take(&out);
}

/* Set the mode (and reset the counters): json like {"mode":"429","count":2}. */
static inline bool gb_test_server_control(const GbTestServer *s, const char *json)
{
    char *r = gb_test_server_request(s, "/control", json);
    bool ok = r && strstr(r, "\"ok\"");
    free(r);
    return ok;
}

/* An integer counter of GET /stats (-1 on failure). */
static inline long gb_test_server_stat(const GbTestServer *s, const char *key)
{
    char *r = gb_test_server_request(s, "/stats", NULL);
    if (!r) return -1;
    json_t *j = json_loads(r, 0, NULL);
    free(r);
    long v = j && json_is_integer(json_object_get(j, key)) ? (long)json_integer_value(json_object_get(j, key)) : -1;
    json_decref(j);
    return v;
}

/* A string field of GET /stats (owned, NULL when absent or null). */
static inline char *gb_test_server_stat_str(const GbTestServer *s, const char *key)
{
    char *r = gb_test_server_request(s, "/stats", NULL);
    if (!r) return NULL;
    json_t *j = json_loads(r, 0, NULL);
    free(r);
    json_t *v = j ? json_object_get(j, key) : NULL;
    char *out = json_is_string(v) ? gb_strdup(json_string_value(v)) : NULL;
    json_decref(j);
    return out;
}

/* A port on 127.0.0.1 where nothing listens (bound, then closed). */
static inline int gb_test_closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        close(fd);
        return 1;
    }
    close(fd);
    return ntohs(a.sin_port);
}
