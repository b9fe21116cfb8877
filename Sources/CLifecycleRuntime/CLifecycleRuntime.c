#include "CLifecycleRuntime.h"
