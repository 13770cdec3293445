// SPDX-License-Identifier: GPL-2.0
/*
 * The module stays until reboot, whatever is tried: with locked=Y from
 * init, and from the first time a task sets one of the exec securebits
 * (securebits.c), which stock PR_SET_SECUREBITS could not handle.
 *
 * A reference of its own (__module_get()) makes rmmod fail, but not
 * "rmmod -f": delete_module(2) with O_TRUNC ignores references on kernels
 * with CONFIG_MODULE_FORCE_UNLOAD, Debian's among them.  What it never
 * ignores is a module that other modules use: it refuses it with
 * EWOULDBLOCK before it looks at the force flag.  So a pinned omayexec
 * records a use of itself, in the same struct module_use and under the same
 * module_mutex as the loader's ref_module() (static) records the use of a
 * module whose symbols another one needs.  lsmod shows "omayexec" among its
 * own users.
 *
 * With locked=Y, omayexec_pin() runs last in init, once nothing can fail,
 * while the module is still COMING: delete_module() refuses COMING modules
 * anyway, so there is no moment when it is live and not pinned.  Later
 * calls come from tasks that hold a reference (try_module_get()), so the
 * module is not going; delete_module() checks the users under the same
 * mutex.  The struct module_use is allocated at init, so that pinning
 * itself cannot fail, and only the first call pins.
 */

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "common.h"

static struct module_use *self_use;

/*
 * Set under module_mutex, never cleared; read without it by
 * omayexec_get() (common.h), which takes no reference once it is set.
 */
bool omayexec_pinned;

int omayexec_pin_prepare(void)
{
	if (!omayexec_locked && !omayexec_exec_check)
		return 0;
	/* kmalloc()ed, as module_unload_free() would kfree() it. */
	self_use = kmalloc(sizeof(*self_use), GFP_KERNEL);
	return self_use ? 0 : -ENOMEM;
}

/* init failed after omayexec_pin_prepare(). */
void omayexec_pin_cancel(void)
{
	kfree(self_use);
	self_use = NULL;
}

/* Called with module_mutex held. */
void omayexec_pin_locked(void)
{
	/*
	 * "rmmod -f" ignores the references of the tasks in the module: if
	 * it has already begun (GOING, decided under this mutex), do not
	 * pin, so that omayexec_pinned never tells a task that a module on
	 * its way out needs no reference.
	 */
	if (!omayexec_pinned && THIS_MODULE->state != MODULE_STATE_GOING) {
		/* A use holds a reference too, as with ref_module(). */
		__module_get(THIS_MODULE);
		self_use->source = THIS_MODULE;
		self_use->target = THIS_MODULE;
		list_add(&self_use->source_list, &THIS_MODULE->source_list);
		list_add(&self_use->target_list, &THIS_MODULE->target_list);
		WRITE_ONCE(omayexec_pinned, true);
	}
}

void omayexec_pin(void)
{
	if (!self_use)
		return;
	/* Without the mutex's address: in a function that holds it (compat.h). */
	if (!omayexec_sym.module_mutex) {
		omayexec_pin_in_module_mutex_holder();
		return;
	}
	mutex_lock(omayexec_sym.module_mutex);
	omayexec_pin_locked();
	mutex_unlock(omayexec_sym.module_mutex);
}

/* A module that never pinned itself frees what it prepared. */
void omayexec_pin_release(void)
{
	if (!omayexec_pinned)
		omayexec_pin_cancel();
}
