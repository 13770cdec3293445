// SPDX-License-Identifier: GPL-2.0
/*
 * Every file PHP compiles goes through zend_compile_file: the main script
 * (the CLI's, PHP-FPM's), include, require, include_once, require_once,
 * auto_prepend_file, auto_append_file.  Ours is the outermost of the
 * chain (extension.c), so that OPcache, which answers from its cache
 * without reading the file, is asked only after the file was judged.
 *
 * What is judged is the file PHP is about to read, never a name looked up
 * again:
 *  0. a handle that is still a name (include, require, the main script of
 *     PHP-FPM, and OPcache's include_once and request fast paths, which
 *     name a cached file without opening it) that names a local file, as
 *     the engine finds it (php_resolve_path(): include_path, the including
 *     script's directory, file://; the path PHP's own open would take,
 *     after open_basedir) is opened once, by libomayexec, as code: the
 *     judged descriptor is what PHP compiles (step 4), and PHP opens
 *     nothing itself.  Any other name, or an error that is no refusal
 *     (ENOENT, no read permission), goes the engine's way:
 *  1. a handle that is still a name is opened as the engine opens it,
 *     php_stream_open_for_zend_ex() (include_path, the including script's
 *     directory, stream wrappers), and its error is PHP's own;
 *  2. the descriptor under the handle is taken: the FILE of the CLI's
 *     main script, the file descriptor of a plain-file stream;
 *  3. libomayexec opens /proc/self/fd/N as code: the module judges that
 *     very inode at its open, and AT_EXECVE_CHECK runs on the new
 *     descriptor (as the mode and the securebits say);
 *  4. the new, judged descriptor replaces the old one under the handle:
 *     the file judged is the file compiled.
 * A stream with no local file under it (data://, php://memory, http://
 * with allow_url_include, compress.zlib://...) has nothing the kernel
 * could judge: refused.  A phar:// file is judged as its archive, by the
 * archive's name (phar reads the archive through its own cached handle,
 * which no extension can reach).
 *
 * Without /proc (a chroot'ed PHP-FPM pool), step 3 cannot be done: the
 * file is refused, never compiled unjudged.
 */
#include "omxphp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <php_main.h>
#include <fopen_wrappers.h>
#include <php_streams.h>

#include "omayexec.h"

#define PHAR_SCHEME	"phar://"

/*
 * Open the file open as @fd again as code: the new descriptor (O_CLOEXEC,
 * blocking), or -1 with *@err: the refusal's errno, or OMXPHP_ERR_NO_PROC
 * when /proc/self/fd cannot reach the file.
 */
static int reopen_as_code(int fd, int *err)
{
	struct stat st, judged;
	char proc[64];
	int nfd;

	if (fstat(fd, &st)) {
		*err = errno;
		return -1;
	}
	/* A FIFO, a terminal, a directory: no kernel check lets them run. */
	if (!S_ISREG(st.st_mode)) {
		*err = EACCES;
		return -1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	nfd = refusal_open_code(AT_FDCWD, proc, O_RDONLY | O_NOCTTY);
	if (nfd < 0) {
		*err = errno == ENOENT ? OMXPHP_ERR_NO_PROC : errno;
		return -1;
	}
	/* Not the same file: something is mounted over /proc. */
	if (fstat(nfd, &judged) || judged.st_dev != st.st_dev ||
	    judged.st_ino != st.st_ino) {
		close(nfd);
		*err = OMXPHP_ERR_NO_PROC;
		return -1;
	}
	return nfd;
}

/*
 * The name a refusal gives: the main script's as given (the CLI's command
 * line, PHP-FPM's SCRIPT_FILENAME), as every interpreter names it
 * (../refusal.h); an included file's path as PHP resolved it, else as
 * written.
 */
static const char *name_of(const zend_file_handle *h)
{
	if (h->primary_script && h->filename)
		return ZSTR_VAL(h->filename);
	if (h->opened_path)
		return ZSTR_VAL(h->opened_path);
	return h->filename ? ZSTR_VAL(h->filename) : "(unnamed)";
}

/*
 * A name that ends in a FIFO (or another file that is not regular) would
 * make PHP's own open wait for a writer, before anything could be judged:
 * refused at once.  The judgement itself is still made on the descriptor
 * (step 3): this only spares the wait.
 */
static void refuse_waiting_file(const zend_file_handle *h)
{
	zend_string *path;
	struct stat st;

	path = php_resolve_path(ZSTR_VAL(h->filename), ZSTR_LEN(h->filename),
				PG(include_path));
	if (!path)
		return;
	if (!stat(ZSTR_VAL(path), &st) && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		char what[4096];

		snprintf(what, sizeof(what), "%s", ZSTR_VAL(path));
		zend_string_release(path);
		omxphp_refuse(what, S_ISFIFO(st.st_mode) ?
			      "not a regular file: FIFO" :
			      "not a regular file");
	}
	zend_string_release(path);
}

/*
 * Step 1: open a handle that is only a name, as the engine would.  0, or
 * -1 after PHP's own "Failed opening" message (the caller returns NULL,
 * as the engine's compile_file does for a file it cannot open).
 */
static int open_named(zend_file_handle *h, int type)
{
	bool primary = h->primary_script;

	refuse_waiting_file(h);
	/* OPcache's fast paths name the cached file: PHP's open names it anew. */
	if (h->opened_path) {
		zend_string_release(h->opened_path);
		h->opened_path = NULL;
	}
	if (php_stream_open_for_zend_ex(h, USE_PATH | REPORT_ERRORS |
					STREAM_OPEN_FOR_INCLUDE) == SUCCESS) {
		h->primary_script = primary;
		return 0;
	}
	if (!EG(exception))
		zend_message_dispatcher(type == ZEND_REQUIRE ?
					ZMSG_FAILED_REQUIRE_FOPEN :
					ZMSG_FAILED_INCLUDE_FOPEN,
					ZSTR_VAL(h->filename));
	return -1;
}

/* The archive of a phar:// name, judged by its name; returns when it may run. */
static void judge_phar(const char *url)
{
	char path[4096], *end;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s", url + strlen(PHAR_SCHEME));
	/* The archive is the shortest prefix of the path that is a file. */
	for (end = path; ; end++) {
		end = strchr(end, '/');
		if (end == path)
			continue;	/* the leading "/" of an absolute path */
		if (end)
			*end = '\0';
		if (path[0] && !stat(path, &st) && !S_ISDIR(st.st_mode))
			break;
		if (!end)
			omxphp_refuse(url, "no archive file found under the phar:// name");
		*end = '/';
	}
	fd = refusal_open_code(AT_FDCWD, path, O_RDONLY | O_NOCTTY);
	if (fd < 0) {
		char why[8192];

		refusal_why_path(AT_FDCWD, path, errno, why, sizeof(why));
		omxphp_refuse(url, why);
	}
	close(fd);
}

/*
 * Step 2: the descriptor under the handle, or -1 when the handle is a
 * stream with no local file under it (refused by the caller).
 */
static int descriptor_of(zend_file_handle *h)
{
	php_stream *stream;
	int fd;

	if (h->type == ZEND_HANDLE_FP)
		return h->handle.fp ? fileno(h->handle.fp) : -1;
	/* Only a php_stream (php_stream_open_for_zend_ex's reader) is known. */
	if (h->handle.stream.reader != (zend_stream_reader_t)_php_stream_read)
		return -1;
	stream = h->handle.stream.handle;
	if (!php_stream_is(stream, PHP_STREAM_IS_STDIO) ||
	    php_stream_cast(stream, PHP_STREAM_AS_FD, (void **)&fd, 0) != SUCCESS)
		return -1;
	return fd;
}

/* Step 4: @fd, judged, becomes what PHP reads; the old handle is closed. */
static void hand_over(zend_file_handle *h, int fd)
{
	FILE *fp = fdopen(fd, "rb");

	if (!fp) {
		close(fd);
		omxphp_refuse(name_of(h), "out of memory");
	}
	if (h->type == ZEND_HANDLE_FP) {
		if (h->handle.fp != stdin)
			fclose(h->handle.fp);
	} else if (h->handle.stream.closer) {
		h->handle.stream.closer(h->handle.stream.handle);
	}
	memset(&h->handle, 0, sizeof(h->handle));
	h->type = ZEND_HANDLE_FP;
	h->handle.fp = fp;
}

/*
 * Step 0: 1 when the handle, a name, was opened as code and handed over
 * (a refusal does not return), 0 when it is left to the engine's open
 * (step 1): a stream wrapper's URL (phar://, data:, a user wrapper that
 * replaced file://), a name PHP cannot resolve, open_basedir's refusal,
 * an error the plain open would get as well.  The judged open costs what
 * PHP's own would: the include pays the exec check, not another open.
 */
static int open_local_as_code(zend_file_handle *h)
{
	const char *name = ZSTR_VAL(h->filename);
	zend_string *path;
	char why[8192], what[4096];
	int fd, err;

	if (php_stream_locate_url_wrapper(name, NULL, 0) !=
	    &php_plain_files_wrapper)
		return 0;
	path = php_resolve_path(name, ZSTR_LEN(h->filename), PG(include_path));
	if (!path)
		return 0;
	if (php_check_open_basedir_ex(ZSTR_VAL(path), 0)) {
		zend_string_release(path);
		return 0;
	}
	/* Non-blocking: a FIFO is refused at once, not waited on. */
	fd = refusal_open_code(AT_FDCWD, ZSTR_VAL(path),
			       O_RDONLY | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		if (!refusal_is_refusal(AT_FDCWD, ZSTR_VAL(path), err)) {
			zend_string_release(path);
			return 0;
		}
		refusal_why_path(AT_FDCWD, ZSTR_VAL(path), err, why, sizeof(why));
		snprintf(what, sizeof(what), "%s", ZSTR_VAL(path));
		zend_string_release(path);
		omxphp_refuse(what, why);
	}
	/* OPcache's fast paths name the cached file: ours is the one opened. */
	if (h->opened_path)
		zend_string_release(h->opened_path);
	h->opened_path = path;
	hand_over(h, fd);
	return 1;
}

static bool is_phar(const zend_file_handle *h)
{
	const char *name = name_of(h);

	return !strncasecmp(name, PHAR_SCHEME, strlen(PHAR_SCHEME));
}

zend_op_array *omxphp_compile_file(zend_file_handle *h, int type)
{
	int fd, nfd, err;

	/* Read already (a buffer the engine or OPcache filled): not ours to redo. */
	if (h->buf)
		return omxphp_next_compile_file(h, type);
	/* The CLI's standard input: deny-interactive decides, as for omxsh. */
	if (h->type == ZEND_HANDLE_FP && h->handle.fp == stdin) {
		omxphp_prompt_check_stdin();
		return omxphp_next_compile_file(h, type);
	}
	if (h->type == ZEND_HANDLE_FILENAME && open_local_as_code(h))
		return omxphp_next_compile_file(h, type);
	if (h->type == ZEND_HANDLE_FILENAME && open_named(h, type))
		return NULL;

	if (is_phar(h)) {
		judge_phar(name_of(h));
		return omxphp_next_compile_file(h, type);
	}
	fd = descriptor_of(h);
	if (fd < 0)
		omxphp_refuse(name_of(h),
			      "not a local file: no file the kernel could check");
	nfd = reopen_as_code(fd, &err);
	if (nfd < 0)
		omxphp_refuse_file(name_of(h), err, fd);
	hand_over(h, nfd);
	return omxphp_next_compile_file(h, type);
}
