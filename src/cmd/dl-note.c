// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The .note.dlopen ELF notes (systemd's "dlopen metadata", FDO owner, type
 * 0x407c0c0a): one per library of dl-libs.h, each a NUL-terminated JSON
 * array, so that dpkg-shlibdeps helpers, rpm and `systemd-analyze
 * dlopen-metadata` see what `ldd` cannot.  Linked into the executable
 * itself: an object of a static library that nothing references would be
 * left out of the link.
 */
#include <stdint.h>

#include "dl-libs.h"

#define NOTE_OWNER "FDO"
#define NOTE_TYPE 0x407c0c0a

/* A compile-time string, not output: libsmartcols has no part in the ELF file. */
#define NOTE_JSON(id, soname, package, priority, needs, without)                         \
	"[{\"soname\":[\"" soname "\"],\"feature\":\"" #id "\",\"description\":\"" needs \
	"\",\"priority\":\"" priority "\"}]"

#define NOTE(id, soname, package, priority, needs, without)                                  \
	__attribute__((used, section(".note.dlopen"))) _Alignas(4) static const struct {     \
		uint32_t namesz, descsz, type;                                               \
		char name[sizeof(NOTE_OWNER)];                                               \
		_Alignas(4) char desc[sizeof(NOTE_JSON(id, soname, package, priority, needs, \
						       without))];                           \
	} dlopen_note_##id = {                                                               \
		sizeof(NOTE_OWNER),                                                          \
		sizeof(NOTE_JSON(id, soname, package, priority, needs, without)),            \
		NOTE_TYPE,                                                                   \
		NOTE_OWNER,                                                                  \
		NOTE_JSON(id, soname, package, priority, needs, without),                    \
	};

DL_LIBRARIES(NOTE)
