#include "src/base/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool gb_journal__drop_torn_tail(int fd, const char *path, GbError *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        gb_error_set(err, "%s: %s", path, strerror(errno));
        return false;
    }
    off_t size = st.st_size;
    if (size == 0) return true;
    char c;
    if (pread(fd, &c, 1, size - 1) != 1) {
        gb_error_set(err, "%s: read error", path);
        return false;
    }
    if (c == '\n') return true;
    /* Walk back to the last newline: everything after it is a partial record. */
    off_t pos = size - 1;
    char buf[4096];
    while (pos > 0) {
        off_t start = pos >= (off_t)sizeof buf ? pos - (off_t)sizeof buf : 0;
        ssize_t n = pread(fd, buf, (size_t)(pos - start), start);
        if (n <= 0) break;
        for (ssize_t i = n - 1; i >= 0; i--) {
            if (buf[i] == '\n') {
                off_t keep = start + i + 1;
                if (ftruncate(fd, keep) != 0) {
                    gb_error_set(err, "%s: cannot truncate torn record: %s", path, strerror(errno));
                    return false;
                }
                return true;
            }
        }
        pos = start;
    }
    if (ftruncate(fd, 0) != 0) {
        gb_error_set(err, "%s: cannot truncate torn record: %s", path, strerror(errno));
        return false;
    }
    return true;
}

bool gb_journal_open(GbJournal *j, const char *path, bool resume, GbError *err)
{
    j->fd = -1;
    j->path = gb_strdup(path);
    if (!resume && access(path, F_OK) == 0) {
        for (int k = 1; k < 10000; k++) {
            char *bak = gb_asprintf("%s.bak-%d", path, k);
            if (access(bak, F_OK) != 0) {
                int rc = rename(path, bak);
                free(bak);
                if (rc != 0) {
                    gb_error_set(err, "%s: cannot move old journal aside: %s", path, strerror(errno));
                    free(j->path);
                    return false;
                }
                break;
            }
            free(bak);
        }
    }
    j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (j->fd < 0) {
        gb_error_set(err, "%s: cannot open journal: %s", path, strerror(errno));
        free(j->path);
        return false;
    }
    if (resume && !gb_journal__drop_torn_tail(j->fd, path, err)) {
        close(j->fd);
        free(j->path);
        return false;
    }
    return true;
}

bool gb_journal_append(GbJournal *j, const char *line, GbError *err)
{
    size_t n = strlen(line);
    char *buf = gb_malloc(n + 1);
    memcpy(buf, line, n);
    buf[n] = '\n';
    size_t off = 0;
    while (off < n + 1) {
        ssize_t w = write(j->fd, buf + off, n + 1 - off);
        if (w < 0) {
            if (errno == EINTR) continue;
            gb_error_set(err, "%s: write failed: %s", j->path, strerror(errno));
            free(buf);
            return false;
        }
        off += (size_t)w;
    }
    free(buf);
    if (fsync(j->fd) != 0) {
        gb_error_set(err, "%s: fsync failed: %s", j->path, strerror(errno));
        return false;
    }
    return true;
}

void gb_journal_close(GbJournal *j)
{
    if (j->fd >= 0) close(j->fd);
    j->fd = -1;
    free(j->path);
    j->path = NULL;
}
