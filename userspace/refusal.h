/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Words that omxsh, omayexec-python3 and omayexec-perl share in their
 * one-line refusals.
 */
#ifndef OMAYEXEC_REFUSAL_H
#define OMAYEXEC_REFUSAL_H

/*
 * The open as code failed with EPERM: a listener of fanotify's
 * FAN_OPEN_EXEC_PERM (fapolicyd) answered FAN_DENY, or a security module
 * refused it.  The file may still open for reading: it is refused.
 */
#define OMAYEXEC_EPERM_WHY \
	"denied by an exec-permission listener (fanotify: fapolicyd) or a security module"

#endif /* OMAYEXEC_REFUSAL_H */
