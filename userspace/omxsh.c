// SPDX-License-Identifier: GPL-2.0
/*
 * omxsh: a tiny script interpreter that adopts O_MAYEXEC the way a real
 * one should (see omxsh(1) and omayexec(7)).
 *
 *   omxsh [-S] [-D] SCRIPT [ARG...]
 *   omxsh [-S] [-D] -c COMMANDS [ARG0 [ARG...]]
 *   omxsh [-S] [-D] < FILE
 *   omxsh --help | --version
 *
 * The language: one command per line, words split on blanks, '...' taken
 * literally, "..." and bare words expanded ($NAME, ${NAME}, $0-$9, $?),
 * '#' starts a comment at the beginning of a word.
 *   echo [WORD...]         print the words, separated by one space
 *   set NAME [WORD...]     set a variable to the words
 *   include FILE           run FILE (relative to the including file's
 *   source FILE            directory), through libomayexec
 *   exit [N]               stop with status N (default: the last status)
 *
 * Every file of code (the script and each included file) is opened with
 * omayexec_open(), so the kernel's O_MAYEXEC policy judges it before any
 * of it runs.  Code that does not come from a file (-c, standard input)
 * cannot be judged that way: -D refuses it, unless standard input is a
 * regular file that passes the same check.
 *
 * Exit status: the script's; 126 when a file is refused (REFUSAL_STATUS)
 * or cannot be read, 127 when it cannot be opened at all (no such file),
 * 2 for a usage or syntax error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omayexec.h"
#include "refusal.h"

/* From ../VERSION, by the Makefile: the version is written in one place. */
#ifndef OMAYEXEC_VERSION
#error "OMAYEXEC_VERSION is not defined: build with userspace/Makefile"
#endif

#define PROG		"omxsh"
#define MAX_DEPTH	16
#define MAX_VARS	64
#define MAX_WORDS	64

#define STATUS_CANNOT_READ	126	/* as shells: there, but not readable */
#define STATUS_NOFILE	127
#define STATUS_SYNTAX	2

struct var {
	char *name;
	char *value;
};

struct interp {
	struct var vars[MAX_VARS];
	int nvars;
	char *args[10];		/* $0-$9 */
	int last_status;
	int exiting;		/* "exit" ran, or an error stops everything */
	int depth;
};

/* Where the code being run comes from, for messages and includes. */
struct source {
	const char *name;	/* a path, "-c" or "standard input" */
	const char *dir;	/* directory for relative includes, or NULL */
	long line;
};

static int run_stream(struct interp *in, FILE *f, const struct source *src);

/* ---- Variables -------------------------------------------------------- */

static const char *var_get(const struct interp *in, const char *name)
{
	int i;

	if (name[0] >= '0' && name[0] <= '9' && !name[1])
		return in->args[name[0] - '0'] ? in->args[name[0] - '0'] : "";
	for (i = 0; i < in->nvars; i++)
		if (!strcmp(in->vars[i].name, name))
			return in->vars[i].value;
	return "";
}

/* 0, or -errno. */
static int var_set(struct interp *in, const char *name, const char *value)
{
	char *copy = strdup(value);
	int i;

	if (!copy)
		return -ENOMEM;
	for (i = 0; i < in->nvars; i++) {
		if (!strcmp(in->vars[i].name, name)) {
			free(in->vars[i].value);
			in->vars[i].value = copy;
			return 0;
		}
	}
	if (in->nvars == MAX_VARS) {
		free(copy);
		return -ENOSPC;
	}
	in->vars[in->nvars].name = strdup(name);
	if (!in->vars[in->nvars].name) {
		free(copy);
		return -ENOMEM;
	}
	in->vars[in->nvars++].value = copy;
	return 0;
}

static void vars_free(struct interp *in)
{
	int i;

	for (i = 0; i < in->nvars; i++) {
		free(in->vars[i].name);
		free(in->vars[i].value);
	}
	in->nvars = 0;
}

static int valid_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

/* ---- Words ---------------------------------------------------------------- */

/* A growing string. */
struct buf {
	char *s;
	size_t len, cap;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	char *p;

	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;

		p = realloc(b->s, cap);
		if (!p)
			return -ENOMEM;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

static int is_name_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Expand the variable reference at *p (just after '$'): 0 or -errno. */
static int expand(const struct interp *in, const char **p, struct buf *b)
{
	const char *s = *p, *end;
	char name[64], status[16];
	size_t n;

	if (*s == '?') {
		snprintf(status, sizeof(status), "%d", in->last_status);
		*p = s + 1;
		return buf_add(b, status, strlen(status));
	}
	if (*s >= '0' && *s <= '9') {
		name[0] = *s;
		name[1] = '\0';
		*p = s + 1;
	} else if (*s == '{') {
		end = strchr(s, '}');
		if (!end || end == s + 1 || (size_t)(end - s - 1) >= sizeof(name))
			return -EINVAL;
		n = (size_t)(end - s - 1);
		memcpy(name, s + 1, n);
		name[n] = '\0';
		if (!valid_name(name) &&
		    !(name[0] >= '0' && name[0] <= '9' && !name[1]))
			return -EINVAL;
		*p = end + 1;
	} else if (is_name_char(*s)) {
		for (end = s; is_name_char(*end); end++)
			;
		n = (size_t)(end - s);
		if (n >= sizeof(name))
			return -EINVAL;
		memcpy(name, s, n);
		name[n] = '\0';
		*p = end;
	} else {
		/* A lone '$' is itself. */
		return buf_add(b, "$", 1);
	}
	return buf_add(b, var_get(in, name), strlen(var_get(in, name)));
}

/*
 * Split @line into words, expanding variables: the number of words (0 for
 * an empty line or a comment), or -errno (-EINVAL for a syntax error).
 * The words are malloc'ed; free them with words_free().
 */
static int split(const struct interp *in, const char *line, char **words)
{
	struct buf b = { 0 };
	int n = 0, ret = 0, quote;

	for (;;) {
		while (*line == ' ' || *line == '\t' || *line == '\r')
			line++;
		if (!*line || *line == '\n' || *line == '#')
			break;
		if (n == MAX_WORDS) {
			ret = -E2BIG;
			break;
		}
		b.len = 0;
		ret = buf_add(&b, "", 0);
		quote = 0;
		while (!ret && *line) {
			char c = *line;

			if (quote == '\'') {
				if (c == '\'')
					quote = 0;
				else
					ret = buf_add(&b, line, 1);
				line++;
			} else if (c == '$') {
				line++;
				ret = expand(in, &line, &b);
			} else if (quote == '"' && c == '"') {
				quote = 0;
				line++;
			} else if (!quote && (c == '"' || c == '\'')) {
				quote = c;
				line++;
			} else if (!quote && (c == ' ' || c == '\t' ||
					      c == '\r' || c == '\n')) {
				break;
			} else if (c == '\\' && line[1] && line[1] != '\n') {
				ret = buf_add(&b, line + 1, 1);
				line += 2;
			} else {
				ret = buf_add(&b, line, 1);
				line++;
			}
		}
		if (!ret && quote)
			ret = -EINVAL;
		if (ret)
			break;
		words[n++] = b.s;
		b.s = NULL;
		b.cap = 0;
	}
	free(b.s);
	if (ret) {
		while (n > 0)
			free(words[--n]);
		return ret;
	}
	return n;
}

static void words_free(char **words, int n)
{
	while (n > 0)
		free(words[--n]);
}

/* ---- Running files -------------------------------------------------------- */

static void complain(const struct source *src, const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": %s:%ld: ", src->name, src->line);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
}

/*
 * The one line that says why a file of code is not run: a refusal (the
 * reason and what decided, from the shared refusal layer), or a file that
 * cannot be opened at all, as the plain open would fail too.
 */
static int refuse_open(const char *path, int err)
{
	char why[8192];

	if (refusal_is_refusal(AT_FDCWD, path, err)) {
		fprintf(stderr, PROG ": %s: refused: %s\n", path,
			refusal_why_path(AT_FDCWD, path, err, why, sizeof(why)));
		return REFUSAL_STATUS;
	}
	if (err == EACCES) {
		/* It exists, but this user may not read it: as shells, 126. */
		fprintf(stderr, PROG ": %s: cannot read: %s\n", path, strerror(err));
		return STATUS_CANNOT_READ;
	}
	fprintf(stderr, PROG ": %s: cannot open: %s\n", path, strerror(err));
	return STATUS_NOFILE;
}

/* Run the file @path; @dir is the directory of the file that names it. */
static int run_file(struct interp *in, const char *path, const char *dir)
{
	struct source src = { .line = 0 };
	char *full = NULL, *slash, *fdir = NULL;
	FILE *f;
	int fd, status;

	if (in->depth >= MAX_DEPTH) {
		fprintf(stderr, PROG ": %s: include nested more than %d deep\n",
			path, MAX_DEPTH);
		in->exiting = 1;
		return STATUS_SYNTAX;
	}
	if (path[0] != '/' && dir) {
		if (asprintf(&full, "%s/%s", dir, path) < 0) {
			fprintf(stderr, PROG ": %s: %s\n", path, strerror(ENOMEM));
			in->exiting = 1;
			return STATUS_SYNTAX;
		}
		path = full;
	}
	fd = refusal_open_code(AT_FDCWD, path, O_RDONLY | O_NOCTTY);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		status = refuse_open(path, errno);
		if (fd >= 0)
			close(fd);
		in->exiting = 1;
		free(full);
		return status;
	}
	fdir = strdup(path);
	if (!fdir) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(ENOMEM));
		fclose(f);
		free(full);
		in->exiting = 1;
		return STATUS_SYNTAX;
	}
	slash = strrchr(fdir, '/');
	if (slash)
		*(slash == fdir ? slash + 1 : slash) = '\0';
	src.name = path;
	src.dir = slash ? fdir : NULL;
	in->depth++;
	status = run_stream(in, f, &src);
	in->depth--;
	fclose(f);
	free(fdir);
	free(full);
	return status;
}

/* Run one command: its status. */
static int run_command(struct interp *in, char **w, int n,
		       const struct source *src)
{
	struct buf b = { 0 };
	char *end;
	long code;
	int i, ret = 0;

	if (!strcmp(w[0], "echo")) {
		for (i = 1; i < n; i++)
			printf("%s%s", i > 1 ? " " : "", w[i]);
		putchar('\n');
		return 0;
	}
	if (!strcmp(w[0], "set")) {
		if (n < 2 || !valid_name(w[1])) {
			complain(src, "usage: set NAME [WORD...]%s", "");
			in->exiting = 1;
			return STATUS_SYNTAX;
		}
		ret = buf_add(&b, "", 0);
		for (i = 2; !ret && i < n; i++) {
			if (i > 2)
				ret = buf_add(&b, " ", 1);
			if (!ret)
				ret = buf_add(&b, w[i], strlen(w[i]));
		}
		if (!ret)
			ret = var_set(in, w[1], b.s);
		free(b.s);
		if (ret) {
			complain(src, "set: %s", strerror(-ret));
			in->exiting = 1;
			return STATUS_SYNTAX;
		}
		return 0;
	}
	if (!strcmp(w[0], "include") || !strcmp(w[0], "source")) {
		if (n != 2) {
			complain(src, "usage: %s FILE", w[0]);
			in->exiting = 1;
			return STATUS_SYNTAX;
		}
		fflush(stdout);
		return run_file(in, w[1], src->dir);
	}
	if (!strcmp(w[0], "exit")) {
		code = in->last_status;
		if (n > 2 || (n == 2 && ((code = strtol(w[1], &end, 10)),
					 *end || end == w[1] ||
					 code < 0 || code > 255))) {
			complain(src, "usage: exit [0-255]%s", "");
			code = STATUS_SYNTAX;
		}
		in->exiting = 1;
		return (int)code;
	}
	complain(src, "unknown command '%s'", w[0]);
	in->exiting = 1;
	return STATUS_SYNTAX;
}

/* Run the commands of @src, line by line, from @f. */
static int run_stream(struct interp *in, FILE *f, const struct source *src)
{
	struct source here = *src;
	char *line = NULL, *words[MAX_WORDS];
	size_t cap = 0;
	int n, status = 0;

	while (!in->exiting && getline(&line, &cap, f) >= 0) {
		here.line++;
		n = split(in, line, words);
		if (n < 0) {
			complain(&here, "%s", n == -EINVAL ?
				 "syntax error (quote or ${...})" :
				 strerror(-n));
			in->exiting = 1;
			status = STATUS_SYNTAX;
			break;
		}
		if (!n)
			continue;
		status = run_command(in, words, n, &here);
		in->last_status = status;
		words_free(words, n);
	}
	if (!in->exiting && ferror(f)) {
		fprintf(stderr, PROG ": %s: read error: %s\n", src->name,
			strerror(errno));
		in->exiting = 1;
		status = STATUS_NOFILE;
	}
	free(line);
	return status;
}

/* Run a string (-c): the same as a stream. */
static int run_string(struct interp *in, const char *code)
{
	struct source src = { .name = "-c", .dir = NULL, .line = 0 };
	FILE *f = fmemopen((void *)code, strlen(code), "r");
	int status;

	if (!f) {
		fprintf(stderr, PROG ": -c: %s\n", strerror(errno));
		return STATUS_SYNTAX;
	}
	status = run_stream(in, f, &src);
	fclose(f);
	return status;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " [-S] [-D] SCRIPT [ARG...]\n"
		"       " PROG " [-S] [-D] -c COMMANDS [ARG0 [ARG...]]\n"
		"       " PROG " [-S] [-D] < FILE\n"
		"       " PROG " --help | --version\n"
		"  -S, --strict             refuse files when the kernel cannot check them\n"
		"  -D, --deny-interactive   refuse -c, and standard input unless it is a\n"
		"                           regular file that passes the O_MAYEXEC check\n");
}

int main(int argc, char *argv[])
{
	struct interp in = { .nvars = 0 };
	const char *code = NULL, *deny_option = NULL;
	char *script = NULL, why[8192];
	int i, n, status, deny = 0, strict = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "-S") ||
			   !strcmp(argv[i], "--strict")) {
			strict = 1;
		} else if (!strcmp(argv[i], "-D") ||
			   !strcmp(argv[i], "--deny-interactive")) {
			deny = 1;
			deny_option = argv[i];
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			code = argv[++i];
			i++;
			break;
		} else if (!strcmp(argv[i], "-h") ||
			   !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			/* As omayexec --version: the project's version. */
			printf(PROG " " OMAYEXEC_VERSION "\n");
			if (fflush(stdout)) {
				fprintf(stderr, PROG ": writing the output: %s\n",
					strerror(errno));
				return STATUS_NOFILE;
			}
			return 0;
		} else {
			usage(stderr);
			return STATUS_SYNTAX;
		}
	}
	if (strict)
		omayexec_set_mode(OMAYEXEC_STRICT);
	/* The administrator (or the environment) may ask for -D for all. */
	if (omayexec_deny_interactive())
		deny = 1;

	/* $0-$9: the script (or -c's ARG0) and its arguments. */
	if (!code && i < argc)
		script = argv[i];
	in.args[0] = i < argc ? argv[i++] : argv[0];
	for (n = 1; n < 10 && i < argc; n++)
		in.args[n] = argv[i++];

	if (code) {
		if (deny) {
			fprintf(stderr, PROG ": -c: refused: code given on the command line cannot be checked %s\n",
				refusal_deny_tag(deny_option, why, sizeof(why)));
			return REFUSAL_STATUS;
		}
		status = run_string(&in, code);
	} else if (script) {
		status = run_file(&in, script, NULL);
	} else {
		struct source src = {
			.name = "standard input", .dir = NULL, .line = 0,
		};

		if (deny && omayexec_check_fd(STDIN_FILENO)) {
			fprintf(stderr, PROG ": standard input: refused: %s\n",
				refusal_why_stdin(STDIN_FILENO, errno, deny_option,
						  why, sizeof(why)));
			return REFUSAL_STATUS;
		}
		status = run_stream(&in, stdin, &src);
	}
	vars_free(&in);
	if (fflush(stdout) && !status) {
		fprintf(stderr, PROG ": writing the output: %s\n",
			strerror(errno));
		status = STATUS_NOFILE;
	}
	return status;
}
