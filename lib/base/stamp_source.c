/* Names and the ordering of time stamp sources. */
#include "base/stamp_source.h"

const char *stamp_source_name(enum stamp_source source)
{
	switch (source) {
	case STAMP_SW_EVENT:
		return "sw-event";
	case STAMP_SW_BUSY:
		return "sw-busy";
	case STAMP_HW:
		return "hw";
	case STAMP_UNKNOWN:
		break;
	}
	return "unknown";
}

enum stamp_source stamp_source_weaker(enum stamp_source a,
				      enum stamp_source b)
{
	return a < b ? a : b;
}
