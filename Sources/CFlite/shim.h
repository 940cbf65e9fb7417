#include <flite/flite.h>
