/* The power-cut shim of tests/integration/test_power_cut.py, loaded with LD_PRELOAD into the
   driver under test. At every fsync/fdatasync of a regular file (SQLite's own, from C, and
   Python's os.fsync alike) it copies the file's whole content, as it is at that moment, to
   $POWER_CUT_SHADOW/<file name>: the shadow folder then holds exactly what a power cut would
   leave of each file (its content at its last sync), never a write that was not synced.
   $POWER_CUT_DROP=<suffix> skips the copy for files whose name ends so: a lost flush, for the
   test's negative control. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long copies;
static char gone[16][256];
static int ngone;

/* ext4 (data=ordered) commits a deletion with the next fsync of any file: until one returns,
   the deleted file may come back after a power cut. */
static void forget(const char *path) {
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    pthread_mutex_lock(&lock);
    if (ngone < 16) snprintf(gone[ngone++], sizeof gone[0], "%s", name);
    pthread_mutex_unlock(&lock);
}

static int real_unlink(const char *path) {
    static int (*real)(const char *);
    if (!real) real = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
    return real(path);
}

static void commit_deletions(const char *dir) {
    char target[PATH_MAX + 300];
    for (int i = 0; i < ngone; i++) {
        snprintf(target, sizeof target, "%s/%s", dir, gone[i]);
        real_unlink(target);
    }
    ngone = 0;
}

/* Copy what `fd` holds now to $POWER_CUT_SHADOW/<its name>, whole, through a temporary file
   renamed into place: a kill during the copy leaves the previous synced copy. */
static void keep(int fd) {
    const char *dir = getenv("POWER_CUT_SHADOW");
    const char *drop = getenv("POWER_CUT_DROP");
    char link[64], path[PATH_MAX], tmp[PATH_MAX + 64], target[PATH_MAX + 64], buf[1 << 16];
    struct stat st;
    if (!dir) return;
    pthread_mutex_lock(&lock);
    commit_deletions(dir);
    pthread_mutex_unlock(&lock);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return;
    path[n] = 0;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = strlen(name), dlen = drop ? strlen(drop) : 0;
    if (dlen && len >= dlen && strcmp(name + len - dlen, drop) == 0) return; /* a lost flush */
    pthread_mutex_lock(&lock);
    snprintf(tmp, sizeof tmp, "%s/.%s.%lu.tmp", dir, name, copies++);
    snprintf(target, sizeof target, "%s/%s", dir, name);
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out >= 0) {
        off_t at = 0;
        ssize_t got;
        while ((got = pread(fd, buf, sizeof buf, at)) > 0) {
            if (write(out, buf, (size_t)got) != got) { got = -1; break; }
            at += got;
        }
        close(out);
        if (got == 0) rename(tmp, target); else real_unlink(tmp);
    }
    pthread_mutex_unlock(&lock);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    keep(fd);
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    keep(fd);
    return real(fd);
}

int unlink(const char *path) {
    int rc = real_unlink(path);
    if (rc == 0 && getenv("POWER_CUT_SHADOW")) forget(path);
    return rc;
}

int unlinkat(int dirfd, const char *path, int flags) {
    static int (*real)(int, const char *, int);
    if (!real) real = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");
    int rc = real(dirfd, path, flags);
    if (rc == 0 && getenv("POWER_CUT_SHADOW")) forget(path);
    return rc;
}
