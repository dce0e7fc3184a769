/*
 * The version of the toolkit, as the programs print it (-V).  The
 * fingerprint has a version of its own (SH_FP_VERSION, fp/fingerprint.h),
 * which changes only when the fingerprint of a document does.
 */
#ifndef SH_VERSION_H
#define SH_VERSION_H

#define SH_VERSION "0.12.0"

#endif
