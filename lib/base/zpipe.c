#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/io.h"
#include "base/threads.h"
#include "base/zpipe.h"

extern char **environ;

int
sh_z_kind(const void *p, size_t len)
{
	const unsigned char *b = p;

	if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b)
		return SH_Z_GZIP;
	if (len >= 4 && memcmp(b, "BZh", 3) == 0 && b[3] >= '1' &&
	    b[3] <= '9')
		return SH_Z_BZIP2;
	if (len >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0)
		return SH_Z_XZ;
	if (len >= 4 && memcmp(b, "\x28\xb5\x2f\xfd", 4) == 0)
		return SH_Z_ZSTD;
	return SH_Z_NONE;
}

int
sh_z_first(int c)
{
	return c == 0x1f || c == 'B' || c == 0xfd || c == 0x28;
}

const char *
sh_z_name(int kind)
{
	switch (kind) {
	case SH_Z_GZIP:		return "gzip";
	case SH_Z_BZIP2:	return "bzip2";
	case SH_Z_XZ:		return "xz";
	case SH_Z_ZSTD:		return "zstd";
	}
	return NULL;
}

/* A pipe whose two ends are close-on-exec. */
static int
cloexec_pipe(int fd[2])
{
	if (pipe(fd) != 0)
		return -1;
	if (fcntl(fd[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(fd[1], F_SETFD, FD_CLOEXEC) == -1) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	return 0;
}

/* Run the decompressor of kind with standard input in, output and
 * messages to new pipes (z->out, z->err). */
static int
spawn(struct sh_zpipe *z, int kind, int in)
{
	posix_spawn_file_actions_t fa;
	char *argv[3];
	int out[2], msg[2], e;

	argv[0] = (char *)sh_z_name(kind);
	argv[1] = (char *)"-dc";
	argv[2] = NULL;
	if (cloexec_pipe(out) != 0)
		return SH_EIO;
	if (cloexec_pipe(msg) != 0) {
		e = errno;
		close(out[0]);
		close(out[1]);
		errno = e;
		return SH_EIO;
	}
	if ((e = posix_spawn_file_actions_init(&fa)) == 0) {
		if ((e = posix_spawn_file_actions_adddup2(&fa, in, 0)) == 0 &&
		    (e = posix_spawn_file_actions_adddup2(&fa, out[1],
		    1)) == 0 &&
		    (e = posix_spawn_file_actions_adddup2(&fa, msg[1], 2)) == 0)
			e = posix_spawnp(&z->pid, argv[0], &fa, NULL, argv,
			    environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(out[1]);
	close(msg[1]);
	if (e != 0) {
		close(out[0]);
		close(msg[0]);
		z->pid = 0;
		errno = e;
		return SH_EIO;
	}
	z->kind = kind;
	z->out = out[0];
	z->err = msg[0];
	return 0;
}

int
sh_zpipe_open(struct sh_zpipe *z, int kind, int fd)
{
	return spawn(z, kind, fd);
}

int
sh_zpipe_decode(FILE **fp, struct sh_zpipe *z)
{
	unsigned char m[SH_Z_MAGIC];
	ssize_t k;
	int r;

	z->kind = SH_Z_NONE;
	z->pid = 0;
	z->err = -1;
	if ((k = pread(fileno(*fp), m, sizeof(m), 0)) <= 0 ||
	    sh_z_kind(m, (size_t)k) == SH_Z_NONE)
		return 0;
	r = sh_zpipe_open(z, sh_z_kind(m, (size_t)k), fileno(*fp));
	fclose(*fp);
	*fp = NULL;
	if (r != 0)
		return r;
	if ((*fp = fdopen(z->out, "r")) == NULL) {
		close(z->out);
		(void)sh_zpipe_close(z, 0, NULL, 0);
		return SH_ENOMEM;
	}
	return 0;
}

/* What the feeder thread owns. */
struct zfeed {
	FILE *fp;
	int to, own;
	size_t n;
	unsigned char prefix[SH_Z_MAGIC];
};

/* The feeder: the bytes read already, then the rest of the stream, line
 * by line, so that a stream that comes slowly goes on as it comes.  A
 * write fails only when the reader is gone (EPIPE: SIGPIPE is blocked in
 * this thread), and the copy ends. */
static void *
feed(void *arg)
{
	struct zfeed *f = arg;
	sigset_t pipe;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe, NULL);
	if (sh_write_all(f->to, f->prefix, f->n) == 0)
		while ((n = getdelim(&line, &cap, '\n', f->fp)) > 0 &&
		    sh_write_all(f->to, line, (size_t)n) == 0)
			;
	free(line);
	close(f->to);
	if (f->own)
		fclose(f->fp);
	free(f);
	return NULL;
}

int
sh_zpipe_feed(struct sh_zpipe *z, int kind, FILE *fp, const void *prefix,
    size_t n, int own)
{
	struct zfeed *f;
	int p[2], r, e;

	if (n > SH_Z_MAGIC)
		return SH_EINVAL;
	if ((f = calloc(1, sizeof(*f))) == NULL)
		return SH_ENOMEM;
	if (cloexec_pipe(p) != 0) {
		free(f);
		return SH_EIO;
	}
	z->pid = 0;
	z->err = -1;
	z->kind = kind;
	if (kind == SH_Z_NONE)
		z->out = p[0];
	else if ((r = spawn(z, kind, p[0])) != 0) {
		e = errno;
		close(p[0]);
		close(p[1]);
		free(f);
		errno = e;
		return r;
	} else
		close(p[0]);
	f->fp = fp;
	f->to = p[1];
	f->own = own;
	f->n = n;
	memcpy(f->prefix, prefix, n);
	if ((e = sh_thread_start(feed, f)) != 0) {
		close(p[1]);
		free(f);
		if (z->pid == 0)
			close(z->out);
		else
			(void)sh_zpipe_close(z, 0, NULL, 0);
		errno = e;
		return SH_EIO;
	}
	return 0;
}

/* msg: the first line of what the child said, without "NAME: " and
 * the name it gives its standard input. */
static void
first_line(int fd, const char *name, char *msg, size_t cap)
{
	static const char *const stdin_names[] = {
		"stdin: ", "(stdin): ", "/*stdin*\\: ", "/*stdin*\\ : "
	};
	char buf[512], *p, *end;
	size_t n = 0, k, i;
	ssize_t r;

	while (n < sizeof(buf) - 1 &&
	    (r = read(fd, buf + n, sizeof(buf) - 1 - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	for (p = buf; *p == '\n' || *p == '\r'; p++)
		;
	if ((end = strpbrk(p, "\r\n")) != NULL)
		*end = '\0';
	k = strlen(name);
	if (strncmp(p, name, k) == 0 && p[k] == ':' && p[k + 1] == ' ')
		p += k + 2;
	for (i = 0; i < sizeof(stdin_names) / sizeof(stdin_names[0]); i++)
		if (strncmp(p, stdin_names[i], strlen(stdin_names[i])) == 0) {
			p += strlen(stdin_names[i]);
			break;
		}
	/* No trailing ";" or "." (bzip2 says "... unexpectedly;"). */
	for (k = strlen(p); k > 0 && (p[k - 1] == ';' || p[k - 1] == '.' ||
	    p[k - 1] == ' '); k--)
		p[k - 1] = '\0';
	snprintf(msg, cap, "%s", p);
}

int
sh_zpipe_close(struct sh_zpipe *z, int whole, char *msg, size_t cap)
{
	int st, r = 0;

	if (z->pid > 0) {
		if (!whole)
			kill(z->pid, SIGTERM);
		while (waitpid(z->pid, &st, 0) == -1 && errno == EINTR)
			;
		if (whole && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			r = SH_EZ;
			first_line(z->err, sh_z_name(z->kind), msg, cap);
			if (*msg == '\0' && WIFEXITED(st))
				snprintf(msg, cap, "exit status %d",
				    WEXITSTATUS(st));
			else if (*msg == '\0')
				snprintf(msg, cap, "killed by signal %d",
				    WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		}
		z->pid = 0;
	}
	if (z->err >= 0)
		close(z->err);
	z->err = -1;
	return r;
}
