/* st_child.c: child processes with a time limit. Each runs in a process
 * group of its own, so that a hang past its limit is ended with everything
 * it started. The parent sleeps in sigtimedwait on SIGCHLD until a child
 * ends or the nearest deadline passes: no polling. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_internal.h"

double st_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void st_child_block_sigchld(int block)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGCHLD);
    sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL);
}

static void in_child(char *const argv[], const st_strs *env, const char *log)
{
    st_child_block_sigchld(0);
    setpgid(0, 0);
    for (size_t i = 0; i < env->n; i++) {
        char *eq = strchr(env->v[i], '=');
        if (eq) {
            *eq = 0;
            setenv(env->v[i], eq + 1, 1);
            *eq = '=';
        }
    }
    int fd = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
    }
    execvp(argv[0], argv);
    dprintf(2, "gltrace suite: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int st_child_start(st_child *c, char *const argv[], const st_strs *env, const char *log, double timeout)
{
    memset(c, 0, sizeof *c);
    st_child_block_sigchld(1);
    c->started = st_now();
    c->deadline = c->started + timeout;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        in_child(argv, env, log);
    setpgid(pid, pid); /* both sides, so that a kill right after finds the group */
    c->pid = pid;
    return 0;
}

/* 1 when c ended (reaped) or was killed at its deadline. */
static int check(st_child *c, double now)
{
    int st;
    if (c->done)
        return 1;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid) {
        c->status = st, c->done = 1;
        kill(-c->pid, SIGKILL); /* what it left running in its group */
        return 1;
    }
    if (now >= c->deadline && !c->timed_out) {
        c->timed_out = 1;
        kill(-c->pid, SIGKILL);
        kill(c->pid, SIGKILL);
    }
    return 0;
}

size_t st_child_wait(st_child **v, size_t n)
{
    for (;;) {
        double now = st_now(), next = now + 3600;
        size_t done = 0;
        for (size_t i = 0; i < n; i++) {
            done += check(v[i], now);
            if (!v[i]->done && !v[i]->timed_out && v[i]->deadline < next)
                next = v[i]->deadline;
        }
        if (done)
            return done;
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, SIGCHLD);
        double wait = next - now > 0 ? next - now : 0;
        struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
        sigtimedwait(&s, NULL, &ts);
    }
}
