// SPDX-License-Identifier: GPL-2.0
/*
 * The judge of every compilation unit Perl reads from a file.
 *
 * Perl runs code only after it compiled it into ops, and it builds every
 * op through PL_check[type] (CHECKOP in op.c): BEGIN blocks, use, and the
 * code of -M run after the ops of their unit were built, never before.
 * So every op checker is wrapped: when the parser (PL_parser, one per
 * compilation unit: the main program, each require, use and do FILE, each
 * eval STRING) builds its first op, the unit is judged, and a unit that
 * may not run never runs any of its code.
 *
 * What is judged is PL_parser->rsfp, the stream Perl compiles the unit
 * from: the main script, the file require or do FILE found (in any @INC
 * directory or by a relative or absolute path), a file an @INC hook
 * returned a handle of.  Its descriptor goes to the kernel (refuse.c):
 * the file that is checked is the file that is read, whatever names were
 * looked up to find it, and Perl's own names ($0, __FILE__, caller, %INC,
 * its messages) are untouched.  The units that have no file behind them
 * are not judged here: eval STRING (code the program computed), the code
 * an @INC hook hands over from memory (a scalar handle, or a generator:
 * Perl reads /dev/null through the hook's filter), the code of switches
 * (-V, and -M before -e: Perl compiles them before /dev/null), and -e or
 * standard input as the main program, which prompt.c decides before
 * compiling.
 *
 * A refused main script, or a refused file of Perl's own library: one
 * line, exit status 126.  Another refused require, use or do FILE: the
 * unit dies with the line as its error, so require dies (Perl adds its
 * "Compilation failed in require" line, and for use "BEGIN failed"), eval
 * catches it, and do FILE returns undef with the line in $@; %INC records
 * the file as failed, as for any compilation error.  Uncaught, the
 * program exits 126.
 *
 * A judged parser is marked with ext magic on its linestr (a new SV per
 * unit): the cost for every later op of the unit is one magic lookup (a
 * few more inside a string or a pattern, see judged()).
 */
/* perl.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static Perl_check_t next_checker[512];
/* The main script's descriptor, judged by omxpl_judge_script(), or -1. */
static int script_fd = -1;
/* Its address is the mark; it has no methods. */
static MGVTBL judged_mark;

static int marked(SV *linestr)
{
	return SvTYPE(linestr) >= SVt_PVMG &&
	       mg_findext(linestr, PERL_MAGIC_ext, &judged_mark);
}

/*
 * Inside an interpolated string, a regular expression or a here-doc, the
 * lexer reads from another line buffer (sublex_push() sets linestr to the
 * construct's text) and keeps the enclosing ones on the lex_shared chain:
 * a unit judged before is found there, instead of being judged again for
 * each such construct (about 30 times a module of Perl's own library).
 * The chain is the parser's own: a unit require starts from inside one
 * (a BEGIN in a string) has a new parser, and is judged.
 */
static int judged(pTHX)
{
	SV *linestr = PL_parser->linestr;
	LEXSHARED *ls;

	if (!linestr || marked(linestr))
		return 1;
	for (ls = PL_parser->lex_shared; ls; ls = ls->ls_prev)
		if (ls->ls_linestr && marked(ls->ls_linestr))
			return 1;
	return 0;
}

/* /dev/null, Perl's BIT_BUCKET. */
static int is_bit_bucket(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(1, 3);
}

/* The path of the file open as @fd, or "(unknown)". */
static const char *real_name(int fd, char *buf, size_t len)
{
	char proc[64];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, buf, len - 1);
	if (n <= 0)
		return "(unknown)";
	buf[n] = '\0';
	return buf;
}

static void judge_unit(pTHX)
{
	PerlIO *rsfp = PL_parser->rsfp;
	int main_unit = !PL_in_eval, fd, err;
	char line[4096 + 512], path[4096];
	const char *name;

	sv_magicext(PL_parser->linestr, NULL, PERL_MAGIC_ext, &judged_mark,
		    NULL, 0);
	if (!rsfp)
		return;		/* eval STRING */
	/* -e, -E and standard input: prompt.c, before the compilation. */
	if (main_unit && (PL_e_script || rsfp == PerlIO_stdin()))
		return;
	fd = PerlIO_fileno(rsfp);
	if (fd < 0)
		return;		/* an @INC hook's in-memory handle */
	/*
	 * /dev/null holds no code: what is compiled comes from a filter (an
	 * @INC hook's generator) or from the switches (-V, -M with -e).  Named
	 * as the script, nowait.c refused it when Perl opened it.
	 */
	if (is_bit_bucket(fd))
		return;
	/* The main script, judged when it was opened (omxpl_judge_script()). */
	if (main_unit && fd == script_fd)
		return;
	err = omxpl_judge_fd(fd);
	if (!err)
		return;
	name = main_unit ? PL_origfilename : CopFILE(&PL_compiling);
	/* An @INC hook's unit is "/loader/0x.../Name.pm": name the file. */
	if (!name || !strncmp(name, "/loader/0x", 10))
		name = real_name(fd, path, sizeof(path));
	omxpl_refusal(line, sizeof(line), name, err, fd);
	/*
	 * Perl's own library refused: nothing will run (strict.pm, say), and
	 * a program's eval would only bury the remedy under its own errors.
	 */
	if (main_unit || omxpl_in_perl_library(name))
		omxpl_refuse_exit(aTHX_ line);
	omxpl_refuse_die(aTHX_ line);
}

void omxpl_judge_script(pTHX)
{
	char line[4096 + 512];
	int fd = omxpl_script_fd(), err;

	if (fd < 0)
		return;
	err = omxpl_judge_fd(fd);
	if (err) {
		omxpl_refusal(line, sizeof(line), PL_origfilename, err, fd);
		omxpl_refuse_exit(aTHX_ line);
	}
	script_fd = fd;
}

/*
 * One wrapper per op type, each calling the checker it replaced: CHECKOP
 * calls PL_check[type] where the op's own op_type may still be another
 * (split is checked while it is a list), so the wrapper cannot look the
 * type up in the op.  The 512 wrappers are written by the preprocessor:
 * the type is an octal constant of three digits after the 0 (0000 to
 * 0777), pasted from the arguments 00 to 07 and two more digits.
 */
static OP *judge_then_check(pTHX_ OP *o, unsigned int type)
{
	if (PL_parser && !judged(aTHX))
		judge_unit(aTHX);
	return next_checker[type](aTHX_ o);
}

#define CHECKER(n)							\
	static OP *judge_##n(pTHX_ OP *o)				\
	{								\
		return judge_then_check(aTHX_ o, n);			\
	}
#define CHECKERS8(p)	CHECKER(p##0) CHECKER(p##1) CHECKER(p##2)	\
	CHECKER(p##3) CHECKER(p##4) CHECKER(p##5) CHECKER(p##6) CHECKER(p##7)
#define CHECKERS64(p)	CHECKERS8(p##0) CHECKERS8(p##1) CHECKERS8(p##2)	\
	CHECKERS8(p##3) CHECKERS8(p##4) CHECKERS8(p##5) CHECKERS8(p##6)	\
	CHECKERS8(p##7)
CHECKERS64(00) CHECKERS64(01) CHECKERS64(02) CHECKERS64(03)
CHECKERS64(04) CHECKERS64(05) CHECKERS64(06) CHECKERS64(07)

#define ENTRY(n)	judge_##n,
#define ENTRIES8(p)	ENTRY(p##0) ENTRY(p##1) ENTRY(p##2) ENTRY(p##3)	\
	ENTRY(p##4) ENTRY(p##5) ENTRY(p##6) ENTRY(p##7)
#define ENTRIES64(p)	ENTRIES8(p##0) ENTRIES8(p##1) ENTRIES8(p##2)	\
	ENTRIES8(p##3) ENTRIES8(p##4) ENTRIES8(p##5) ENTRIES8(p##6)	\
	ENTRIES8(p##7)
static Perl_check_t const judges[] = {
	ENTRIES64(00) ENTRIES64(01) ENTRIES64(02) ENTRIES64(03)
	ENTRIES64(04) ENTRIES64(05) ENTRIES64(06) ENTRIES64(07)
};

_Static_assert(MAXO <= sizeof(judges) / sizeof(judges[0]),
	       "more op types than wrappers");

/*
 * Not wrapped: the element and exists/delete ops, whose checkers the
 * peephole optimiser compares with its own to decide whether it may fold
 * them into multideref (a wrapper would make every $a[0]{x} slower).
 * Each comes after the ops of its operands, which are wrapped.
 */
static int left_alone(unsigned int type)
{
	return type == OP_AELEM || type == OP_HELEM || type == OP_EXISTS ||
	       type == OP_DELETE;
}

void omxpl_units_install(pTHX)
{
	unsigned int type;

	for (type = 0; type < MAXO; type++)
		if (!left_alone(type))
			wrap_op_checker((Optype)type, judges[type],
					&next_checker[type]);
}
