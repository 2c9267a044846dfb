/* Run directories and module files: writing a program's modules, removing trees. */
#include "src/runner/runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/runner/runner_private.h"

/* Open the directory name under parent for removing what it holds (restoring the
 * permissions a program may have taken away: chmod 000 on a subdirectory); -1 when it is not
 * a directory we can open. */
static int gb_runner__open_dir(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EACCES) {
        fchmodat(parent, name, 0700, 0);
        fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd >= 0) fchmod(fd, 0700);
    return fd;
}

/* Remove what the open directory dfd holds that is not a non-empty directory; the name of
 * the first non-empty subdirectory (owned) in *sub, NULL when none is left. Takes dfd (closed).
 * False when an entry could not be removed (the walk then stops: it would find it again). */
static bool gb_runner__sweep(int dfd, char **sub)
{
    *sub = NULL;
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0 || errno == ENOENT) continue;
        if (errno != EISDIR && errno != EPERM) {
            ok = false;
        } else if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0 || errno == ENOENT) {
            continue;
        } else if (errno == ENOTEMPTY || errno == EEXIST || errno == EACCES) {
            if (!*sub) *sub = gb_strdup(e->d_name);
        } else {
            ok = false;
        }
    }
    closedir(d);
    return ok;
}

/* Remove a directory tree without following symlinks. Iterative, with one descriptor open at
 * a time and the names of the path from the top on the heap: a program's tree may be as deep
 * as its disk allows (a 60,000-deep one must not cost a descriptor or a stack frame a level). */
void gb_runner_rmtree(const char *path)
{
    if (unlinkat(AT_FDCWD, path, 0) == 0 || errno == ENOENT) return;
    int fd = gb_runner__open_dir(AT_FDCWD, path);
    if (fd < 0) return;
    GbArray(char *) names = {0}; /* the directories below path that fd is in, outermost first */
    for (;;) {
        /* a description of its own for the listing (a dup would share its offset) */
        int list = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        char *sub = NULL;
        if (list < 0 || !gb_runner__sweep(list, &sub)) break;
        if (sub) {
            int child = gb_runner__open_dir(fd, sub);
            if (child < 0) {
                free(sub);
                break;
            }
            close(fd);
            fd = child;
            gb_array_push(&names, sub);
            continue;
        }
        if (names.len == 0) break; /* path itself is empty */
        int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (parent < 0) break;
        close(fd);
        fd = parent;
        char *name = names.items[--names.len];
        bool gone = unlinkat(fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
        free(name);
        if (!gone) break;
    }
    if (fd >= 0) close(fd);
    for (size_t i = 0; i < names.len; i++) free(names.items[i]);
    gb_array_free(&names);
    unlinkat(AT_FDCWD, path, AT_REMOVEDIR);
}

bool gb_runner_write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* A module path must stay inside the run directory: relative, no empty, "." or ".."
 * component. */
static bool gb_runner__path_ok(const char *path)
{
    if (!path || !*path || path[0] == '/') return false;
    const char *p = path;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) return false;
        if (!slash) break;
        p = slash + 1;
    }
    return strchr(path, '\\') == NULL;
}

bool gb_runner_chown(int dirfd, const char *name, long uid)
{
    if (uid < 0) return true;
    return fchownat(dirfd, name, (uid_t)uid, (gid_t)uid, AT_SYMLINK_NOFOLLOW) == 0;
}

bool gb_runner_write_modules(const char *dir, const GbProgram *prog, long owner, GbError *err)
{
    for (size_t i = 0; i < prog->modules.len; i++) {
        const GbFile *m = &prog->modules.items[i];
        if (!gb_runner__path_ok(m->path)) {
            gb_error_set(err, "module path '%s' is not a relative path inside the program", m->path ? m->path : "");
            return false;
        }
        char *path = gb_asprintf("%s/%s", dir, m->path);
        /* parent directories of nested modules (pkg/helper.py) */
        for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
            *s = '\0';
            if (mkdir(path, 0755) == 0) gb_runner_chown(AT_FDCWD, path, owner);
            *s = '/';
        }
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        bool ok = fd >= 0 && gb_runner_write_all(fd, m->source ? m->source : "", m->source ? strlen(m->source) : 0);
        if (ok && owner >= 0) ok = fchown(fd, (uid_t)owner, (gid_t)owner) == 0;
        if (!ok) gb_error_set(err, "cannot write module %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        free(path);
        if (!ok) return false;
    }
    return true;
}

bool gb_runner_write_file(const char *dir, const char *name, const char *data, size_t len, long owner, GbError *err)
{
    if (!gb_runner__path_ok(name)) {
        gb_error_set(err, "file name '%s' is not a relative path inside the run directory", name ? name : "");
        return false;
    }
    char *path = gb_asprintf("%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    bool ok = fd >= 0 && gb_runner_write_all(fd, data, len);
    if (ok && owner >= 0) ok = fchown(fd, (uid_t)owner, (gid_t)owner) == 0;
    if (!ok) gb_error_set(err, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    free(path);
    return ok;
}

void gb_run_files_destroy(GbRunFiles *files)
{
    if (!files) return;
    for (size_t i = 0; i < files->len; i++) {
        free(files->items[i].name);
        free(files->items[i].data);
    }
    gb_array_free(files);
}

bool gb_runner_collect_files(const char *dir, const char *suffix, size_t max_files, size_t max_bytes, GbRunFiles *out,
                             GbError *err)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        gb_error_set(err, "cannot open %s: %s", dir, strerror(errno));
        return false;
    }
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        gb_error_set(err, "cannot read %s: %s", dir, strerror(errno));
        return false;
    }
    size_t sl = strlen(suffix), total = 0;
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d)) != NULL) {
        size_t nl = strlen(e->d_name);
        if (nl <= sl || strcmp(e->d_name + nl - sl, suffix) != 0) continue;
        /* the directory belongs to the run: open without following links, and only regular files */
        int fd = openat(dfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            continue;
        }
        if (out->len >= max_files || (size_t)st.st_size > max_bytes - total) {
            gb_error_set(err, "%s: more than %zu files or %zu bytes end with %s", dir, max_files, max_bytes, suffix);
            close(fd);
            ok = false;
            break;
        }
        GbRunFile f = {gb_strdup(e->d_name), gb_malloc((size_t)st.st_size + 1), 0};
        for (;;) {
            ssize_t n = read(fd, f.data + f.len, (size_t)st.st_size - f.len);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            f.len += (size_t)n;
            if (f.len == (size_t)st.st_size) break;
        }
        close(fd);
        total += f.len;
        gb_array_push(out, f);
    }
    closedir(d);
    return ok;
}
