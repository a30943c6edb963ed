#ifndef STOREKEEPER_CYAML_SHIM_H
#define STOREKEEPER_CYAML_SHIM_H
#include <yaml.h>
#endif
