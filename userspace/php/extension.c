// SPDX-License-Identifier: GPL-2.0
/*
 * The module omayexec.so: its one ini setting, and the engine's compile
 * hooks wrapped so that ours run first.
 *
 * OPcache replaces zend_compile_file after every module's MINIT (in its
 * post-startup callback), so that a hook set in MINIT would run inside
 * OPcache's, only on a cache miss: a cached file would run unjudged.  The
 * hooks are wrapped at the first request of each process instead (the
 * first RINIT: the CLI's one request, or a PHP-FPM worker's first), when
 * every startup hook is in place; ours is then the outermost, and every
 * include is judged, from the cache or not.  The process-wide pointers
 * are safe to swap there because Debian's PHP has no threads (ZTS).
 */
#include "omxphp.h"

#include <ext/standard/info.h>

#include "omayexec.h"

zend_op_array *(*omxphp_next_compile_file)(zend_file_handle *h, int type);
zend_op_array *(*omxphp_next_compile_string)(zend_string *source,
					     const char *filename,
					     zend_compile_position pos);

static bool ini_deny_interactive;

/* System-wide only (php.ini, the pool's php_admin_flag): no ini_set(). */
static ZEND_INI_MH(on_deny_interactive)
{
	ini_deny_interactive = zend_ini_parse_bool(new_value);
	return SUCCESS;
}

PHP_INI_BEGIN()
	ZEND_INI_ENTRY(OMXPHP_DENY_INI, "0", ZEND_INI_SYSTEM, on_deny_interactive)
PHP_INI_END()

static PHP_MINIT_FUNCTION(omayexec)
{
	REGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(omayexec)
{
	/* Give back only what is still ours: another may have wrapped us. */
	if (omxphp_next_compile_file && zend_compile_file == omxphp_compile_file)
		zend_compile_file = omxphp_next_compile_file;
	if (omxphp_next_compile_string &&
	    zend_compile_string == omxphp_compile_string)
		zend_compile_string = omxphp_next_compile_string;
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(omayexec)
{
	if (omxphp_next_compile_file)
		return SUCCESS;
	omxphp_prompt_init(ini_deny_interactive);
	omxphp_next_compile_file = zend_compile_file;
	zend_compile_file = omxphp_compile_file;
	omxphp_next_compile_string = zend_compile_string;
	zend_compile_string = omxphp_compile_string;
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(omayexec)
{
	struct omayexec_state st;

	php_info_print_table_start();
	php_info_print_table_row(2, "omayexec", "every file compiled is judged by the kernel first");
	if (!omayexec_get_state(&st, sizeof(st))) {
		php_info_print_table_row(2, "O_MAYEXEC", st.kernel_support ? "yes" : "no");
		php_info_print_table_row(2, "mode", st.mode == OMAYEXEC_STRICT ?
					 "strict" : "best effort");
		php_info_print_table_row(2, "deny-interactive",
					 st.deny_interactive || ini_deny_interactive ?
					 "on" : "off");
	}
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

zend_module_entry omayexec_module_entry = {
	STANDARD_MODULE_HEADER,
	"omayexec",
	NULL,
	PHP_MINIT(omayexec),
	PHP_MSHUTDOWN(omayexec),
	PHP_RINIT(omayexec),
	NULL,
	PHP_MINFO(omayexec),
	OMXPHP_VERSION,
	STANDARD_MODULE_PROPERTIES
};

ZEND_GET_MODULE(omayexec)
