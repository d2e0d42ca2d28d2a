// SPDX-License-Identifier: GPL-2.0
#include "tests/host/check.h"

void host_test_context_tracking(void)
{
}
