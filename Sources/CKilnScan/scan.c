// The scans are `static inline` in the header; this file makes the target a C library.
#include "CKilnScan.h"
